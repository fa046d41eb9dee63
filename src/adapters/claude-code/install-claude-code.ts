import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand as defaultHostHookCommand } from "../hook-command.js";
import { editJsonText, parseJsonc } from "../json-file-edit.js";
import { lineDiff } from "../line-diff.js";
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
export function readSettings(path: string): { text: string; settings: Record<string, unknown> } {
  if (!existsSync(path)) return { text: "", settings: {} };
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return { text, settings: {} };
  try {
    const value = parseJsonc(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
    return { text, settings: value as Record<string, unknown> };
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} is not a valid JSON object (${(error as Error).message}). Fix or remove it, then run the command again; nothing was changed.`,
      cause: error,
    });
  }
}

function update(options: InstallOptions, change: (settings: Record<string, unknown>) => Record<string, unknown>) {
  const path = claudeSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  const { text, settings } = readSettings(path);
  const next = change(settings);
  // only the changed values are edited: the rest of the file keeps its formatting, key order and comments, and
  // the diff compares the file's real text before and after, so it shows every line the write changes
  const nextText =
    Object.keys(next).length === 0 && text === "" ? "" : editJsonText({ text, before: settings, after: next });
  const diff = lineDiff({ before: text, after: nextText });
  const changed = diff.length > 0;
  let written = false;
  if (changed && !options.dryRun) {
    mkdirSync(dirname(path), { recursive: true });
    const temporary = `${path}.toolgate-${process.pid}.tmp`;
    writeFileSync(temporary, nextText);
    renameSync(temporary, path);
    written = true;
  }
  return { path, changed, diff, written };
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
