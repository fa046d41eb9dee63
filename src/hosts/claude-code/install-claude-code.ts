import { homedir } from "node:os";
import { join } from "node:path";
import { defaultHookCommand as defaultHostHookCommand } from "../common/hook-command.js";
import { editSettingsFile, readSettingsFile } from "../common/settings-file.js";
import { addToolgateHooks, removeToolgateHooks } from "./settings-hooks.js";

export type InstallScope = "project" | "local" | "user";

export interface InstallOptions {
  scope: InstallScope;
  dryRun: boolean;
  /** the hook command; default runs this toolgate with this node: `"<node>" "<dist/cli/main.js>" hook claude-code` */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface InstallOutcome {
  /** the settings file */
  path: string;
  changed: boolean;
  /** unified-style lines: `+ added`, `- removed`, `  context` */
  diff: string[];
  written: boolean;
}

/** Where each scope's Claude Code settings live. */
export function claudeSettingsPath(options: { scope: InstallScope; cwd: string; home: string }): string {
  if (options.scope === "user") return join(options.home, ".claude", "settings.json");
  const file = options.scope === "local" ? "settings.local.json" : "settings.json";
  return join(options.cwd, ".claude", file);
}

/** The command Claude Code runs: this node binary and this toolgate, so it works without a global install. */
export function defaultHookCommand(): string {
  return defaultHostHookCommand("claude-code");
}

/** Reads a Claude Code settings file (JSONC); `{}` when it is missing or empty; CONFIG_INVALID when not an object. */
export const readSettings = readSettingsFile;

function update(options: InstallOptions, change: (settings: Record<string, unknown>) => Record<string, unknown>) {
  const path = claudeSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change });
}

/** Merges toolgate's hooks into the scope's settings file (idempotent). */
export function installClaudeCode(options: InstallOptions): InstallOutcome {
  const command = options.command ?? defaultHookCommand();
  return update(options, (settings) => addToolgateHooks(settings, command));
}

/** Removes exactly toolgate's hook entries from the scope's settings file. */
export function uninstallClaudeCode(options: InstallOptions): InstallOutcome {
  return update(options, removeToolgateHooks);
}
