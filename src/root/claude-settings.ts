import { readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import {
  type ClaudePermissions,
  type ClaudeSettingsRules,
  type ClaudeSettingsScope,
  mergeClaudeSettings,
} from "../policy/claude-settings-rules.js";
import { readJsonFile } from "./read-json-file.js";

export const DEFAULT_MANAGED_SETTINGS = "/etc/claude-code/managed-settings.json";

export interface ReadClaudeSettingsOptions {
  /** the project directory (Claude Code's cwd); `CLAUDE_PROJECT_DIR` wins when set in `env` */
  cwd: string;
  homeDir: string;
  env?: Readonly<Record<string, string | undefined>>;
  /** managed settings file; its `managed-settings.d/*.json` drop-ins are read too */
  managedSettingsPath?: string;
  /** `auto` reads `projects[<dir>].hasTrustDialogAccepted` from `~/.claude.json` (the default) */
  workspaceTrust?: "auto" | "trusted" | "untrusted";
}

export interface ClaudeSettings extends ClaudeSettingsRules {
  /** the files that existed and were read, highest precedence first */
  files: string[];
  trusted: boolean;
  projectDirectory: string;
}

/**
 * Reads the Claude Code settings hierarchy the way the CLI does: managed settings (and drop-ins), project
 * `.claude/settings.local.json` and `.claude/settings.json`, user `~/.claude/settings.json`; merged by
 * `mergeClaudeSettings` (rules concatenated; project allow entries ignored in an untrusted workspace).
 * A file that is not valid JSON throws CONFIG_INVALID naming the file.
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
  for (const candidate of candidates) {
    const value = readJsonFile(candidate.file);
    if (value === undefined || typeof value !== "object" || value === null) continue;
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
  return { ...mergeClaudeSettings({ scopes, trusted }), files, trusted, projectDirectory };
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
