import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import {
  type ClaudePermissions,
  type ClaudeSettingsScope,
  mergeClaudeSettings,
} from "../../policy/claude-settings-rules.js";
import { readJsonFile } from "../../root/read-json-file.js";
import { stripJsonComments } from "../../root/strip-json-comments.js";
import type { SettingsHierarchy, SettingsHierarchyOptions } from "../common/settings-hierarchy.js";

export const DEFAULT_MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json";

/** `cwd` is Claude Code's (`CLAUDE_PROJECT_DIR` wins when set in `env`); `workspaceTrust: "auto"` reads `~/.claude.json`. */
export type ReadClaudeSettingsOptions = SettingsHierarchyOptions;

export type ClaudeSettings = SettingsHierarchy;

/**
 * Reads the Claude Code settings hierarchy the way the CLI does: managed settings (and drop-ins), project
 * `.claude/settings.local.json` and `.claude/settings.json`, user `~/.claude/settings.json`; merged by
 * `mergeClaudeSettings` (rules concatenated; project allow entries ignored in an untrusted workspace).
 * Each file is parsed as Claude Code parses it, as plain JSON: a file with a comment, a trailing comma or broken
 * JSON, or that is not an object, is skipped by Claude Code (its rules and hooks with it), so it is skipped here and
 * listed in `skipped` (the hook warns, `toolgate doctor` fails on it). A file that exists but cannot be read throws
 * CONFIG_INVALID naming the file (the hook then fails closed).
 */
export function readClaudeSettings(options: ReadClaudeSettingsOptions): ClaudeSettings {
  const projectDirectory = resolve(options.env?.CLAUDE_PROJECT_DIR || options.cwd);
  const managedFile = options.managedSettingsPath ?? DEFAULT_MANAGED_SETTINGS;
  const candidates: { scope: ClaudeSettingsScope["scope"]; file: string }[] = [
    { scope: "managed", file: managedFile },
    ...dropIns(join(dirname(managedFile), "managed-settings.d")).map((file) => ({ scope: "managed" as const, file })),
    { scope: "local", file: join(projectDirectory, ".claude", "settings.local.json") },
    { scope: "project", file: join(projectDirectory, ".claude", "settings.json") },
    { scope: "user", file: join(options.homeDir, ".claude", "settings.json") },
  ];
  const scopes: ClaudeSettingsScope[] = [];
  const files: string[] = [];
  const skipped: ClaudeSettings["skipped"] = [];
  for (const candidate of candidates) {
    const read = readClaudeSettingsFile(candidate.file);
    if (read.skipped !== undefined) skipped.push({ file: candidate.file, why: read.skipped });
    const value = read.value;
    if (value === undefined) continue;
    files.push(candidate.file);
    const settings = value as { permissions?: ClaudePermissions; allowManagedPermissionRulesOnly?: boolean };
    scopes.push({
      scope: candidate.scope,
      file: candidate.file,
      permissions: typeof settings.permissions === "object" ? settings.permissions : undefined,
      ...(settings.allowManagedPermissionRulesOnly === true ? { allowManagedPermissionRulesOnly: true } : {}),
    });
  }
  const trust = options.workspaceTrust ?? "auto";
  const trusted = trust === "auto" ? isTrusted(projectDirectory, options.homeDir) : trust === "trusted";
  return { ...mergeClaudeSettings({ scopes, trusted }), files, skipped, trusted, projectDirectory };
}

/**
 * One Claude Code settings file as Claude Code reads it: plain JSON (a byte order mark allowed), an object. Absent
 * or blank: nothing. Anything else is `skipped`, with why and the fix. Unreadable: CONFIG_INVALID.
 */
export function readClaudeSettingsFile(file: string): { value?: object; skipped?: string } {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return {};
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `Cannot read ${file} (${code ?? String(error)}). Check the file's permissions.`,
      data: { file },
      cause: error,
    });
  }
  const json = text.replace(/^\uFEFF/, "");
  if (json.trim() === "") return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    let commented = false;
    try {
      JSON.parse(stripJsonComments(json));
      commented = true;
    } catch {
      commented = false;
    }
    return {
      skipped: commented
        ? "it has comments or trailing commas, which Claude Code does not accept in settings files: remove them"
        : `it is not valid JSON (${(error as Error).message}): fix the syntax`,
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { skipped: "it is not a JSON object: make it one (`{ ... }`)" };
  }
  return { value };
}

function dropIns(directory: string): string[] {
  try {
    return readdirSync(directory)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => join(directory, name));
  } catch {
    return [];
  }
}

/** Whether the person accepted Claude Code's trust dialog for this directory or an ancestor (`~/.claude.json`). */
export function isTrusted(projectDirectory: string, homeDir: string): boolean {
  let state: unknown;
  try {
    state = readJsonFile(join(homeDir, ".claude.json"));
  } catch {
    return false;
  }
  const projects = (state as { projects?: Record<string, { hasTrustDialogAccepted?: boolean }> } | undefined)?.projects;
  if (projects === undefined || typeof projects !== "object") return false;
  let directory = projectDirectory;
  for (;;) {
    if (projects[directory]?.hasTrustDialogAccepted === true) return true;
    const parent = dirname(directory);
    if (parent === directory) return false;
    directory = parent;
  }
}
