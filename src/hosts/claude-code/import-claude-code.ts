import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { type ImportedConfig, type ImportSourceOptions, importSourceNotFound } from "../common/imported-config.js";
import { readClaudeSettings } from "./claude-settings-hierarchy.js";

/** Claude Code: the settings hierarchy of the directory (or one settings file). Rules keep Claude semantics. */
export function importClaudeCode(options: ImportSourceOptions): ImportedConfig {
  if (options.path !== undefined) {
    const file = resolve(options.cwd, options.path);
    if (!existsSync(file)) throw importSourceNotFound("Claude Code settings file", [file]);
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
    throw importSourceNotFound("Claude Code settings", [
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
    notes: [
      "Rules from every scope are merged (deny anywhere wins), as Claude Code merges them.",
      ...settings.skipped.map(({ file, why }) => `Not imported: Claude Code ignores ${file} (${why}).`),
    ],
  };
}
