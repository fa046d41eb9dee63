import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { ToolgateError } from "../core/errors.js";
import { type GEMINI_TIERS, importGeminiPolicy } from "../policy/import/import-gemini.js";
import { importOpencodePermission } from "../policy/import/import-opencode.js";
import type { ImportResult } from "../policy/import/imported-rules.js";
import { readClaudeSettings } from "./claude-settings.js";
import { stripJsonComments } from "./strip-json-comments.js";

export interface ImportedConfig {
  /** the toolgate `permissions` section */
  permissions: Record<string, unknown>;
  files: string[];
  unsupported: ImportResult["unsupported"];
  notes: string[];
}

interface SourceOptions {
  cwd: string;
  homeDir: string;
  /** a file or directory given on the command line */
  path?: string;
}

function notFound(what: string, where: string[]): ToolgateError {
  return new ToolgateError({
    code: "CONFIG_NOT_FOUND",
    message: `No ${what} found (looked at ${where.join(", ")}). Pass the file's path: toolgate import <host> <path>.`,
  });
}

/** Claude Code: the settings hierarchy of the directory (or one settings file). Rules keep Claude semantics. */
export function importClaudeCode(options: SourceOptions): ImportedConfig {
  if (options.path !== undefined) {
    const file = resolve(options.cwd, options.path);
    if (!existsSync(file)) throw notFound("Claude Code settings file", [file]);
    const settings = JSON.parse(readFileSync(file, "utf8")) as { permissions?: Record<string, unknown> };
    const permissions = settings.permissions ?? {};
    const picked: Record<string, unknown> = {};
    for (const key of ["allow", "ask", "deny", "defaultMode", "additionalDirectories"]) {
      if (permissions[key] !== undefined) picked[key] = permissions[key];
    }
    return { permissions: picked, files: [file], unsupported: [], notes: [] };
  }
  const settings = readClaudeSettings({ cwd: options.cwd, homeDir: options.homeDir, workspaceTrust: "trusted" });
  if (settings.files.length === 0) {
    throw notFound("Claude Code settings", [
      ".claude/settings.json",
      ".claude/settings.local.json",
      "~/.claude/settings.json",
    ]);
  }
  const permissions: Record<string, string[] | string> = {};
  for (const rule of settings.rules) {
    const list = (permissions[rule.behavior] as string[] | undefined) ?? [];
    permissions[rule.behavior] = list;
    if (!list.includes(rule.rule)) list.push(rule.rule);
  }
  if (settings.defaultMode !== undefined) permissions.defaultMode = settings.defaultMode;
  if (settings.additionalDirectories.length > 0) permissions.additionalDirectories = settings.additionalDirectories;
  return {
    permissions,
    files: settings.files,
    unsupported: [],
    notes: ["Rules from every scope are merged (deny anywhere wins), as Claude Code merges them."],
  };
}

/** opencode: the `permission` key of opencode.json(c) in the directory or ~/.config/opencode/. */
export function importOpencode(options: SourceOptions): ImportedConfig {
  const candidates =
    options.path !== undefined
      ? [resolve(options.cwd, options.path)]
      : [
          join(options.cwd, "opencode.json"),
          join(options.cwd, "opencode.jsonc"),
          join(options.homeDir, ".config/opencode/opencode.json"),
          join(options.homeDir, ".config/opencode/opencode.jsonc"),
        ];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (file === undefined) throw notFound("opencode config", candidates);
  let parsed: { permission?: unknown };
  try {
    parsed = JSON.parse(stripJsonComments(readFileSync(file, "utf8")));
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${file} is not valid JSON(C): ${(error as Error).message}.`,
    });
  }
  const result = importOpencodePermission(parsed.permission ?? {});
  return { permissions: { rules: result.rules }, files: [file], unsupported: result.unsupported, notes: result.notes };
}

/** Gemini CLI: `*.toml` policies in .gemini/policies (workspace tier) and ~/.gemini/policies (user tier). */
export function importGemini(options: SourceOptions): ImportedConfig {
  const sources: { path: string; tier: keyof typeof GEMINI_TIERS }[] =
    options.path !== undefined
      ? [{ path: resolve(options.cwd, options.path), tier: "user" }]
      : [
          { path: join(options.cwd, ".gemini/policies"), tier: "workspace" },
          { path: join(options.homeDir, ".gemini/policies"), tier: "user" },
        ];
  const files: { file: string; tier: keyof typeof GEMINI_TIERS }[] = [];
  for (const source of sources) {
    if (!existsSync(source.path)) continue;
    if (statSync(source.path).isDirectory()) {
      for (const name of readdirSync(source.path)
        .filter((entry) => entry.endsWith(".toml"))
        .sort()) {
        files.push({ file: join(source.path, name), tier: source.tier });
      }
    } else {
      files.push({ file: source.path, tier: source.tier });
    }
  }
  if (files.length === 0)
    throw notFound(
      "Gemini CLI policy files",
      sources.map((source) => source.path),
    );
  const merged: ImportedConfig = { permissions: { rules: [] }, files: [], unsupported: [], notes: [] };
  let ruleCount = 0;
  for (const { file, tier } of files) {
    let parsed: unknown;
    try {
      parsed = parseToml(readFileSync(file, "utf8"));
    } catch (error) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `${file} is not valid TOML: ${(error as Error).message}`,
      });
    }
    const result = importGeminiPolicy(parsed, { tier, file, firstIndex: ruleCount });
    const tables = (parsed as { rule?: unknown }).rule;
    ruleCount += Array.isArray(tables) ? tables.length : 0;
    (merged.permissions.rules as unknown[]).push(...result.rules);
    merged.files.push(file);
    merged.unsupported.push(...result.unsupported);
    merged.notes.push(...result.notes);
  }
  merged.notes.push("Gemini picks the highest tier + priority/1000; each rule keeps that number as its priority.");
  return merged;
}
