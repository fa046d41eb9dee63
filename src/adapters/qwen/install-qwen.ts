import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../hook-command.js";
import { editJsonText, parseJsonc } from "../json-file-edit.js";
import { lineDiff } from "../line-diff.js";
import { addQwenToolgateHooks, removeQwenToolgateHooks } from "./qwen-settings-hooks.js";

export interface QwenInstallOptions {
  /** `project` (.qwen/settings.json, the default) or `user` (~/.qwen/settings.json); Qwen has no local file */
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the hook command; default: this toolgate run by this node, `... hook qwen` */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface QwenInstallOutcome {
  path: string;
  changed: boolean;
  /** `+ added`, `- removed`, `  context` lines */
  diff: string[];
  written: boolean;
}

/** Where each scope's Qwen Code settings live. */
export function qwenSettingsPath(options: { scope: QwenInstallOptions["scope"]; cwd: string; home: string }): string {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message:
        "Qwen Code has no local settings file; use --project (.qwen/settings.json) or --user (~/.qwen/settings.json).",
    });
  }
  return options.scope === "user"
    ? join(options.home, ".qwen", "settings.json")
    : join(options.cwd, ".qwen", "settings.json");
}

/** Reads a Qwen settings file (JSONC); `{}` when missing or empty; CONFIG_INVALID when it is not an object. */
export function readQwenSettings(path: string): { text: string; settings: Record<string, unknown> } {
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

function update(
  options: QwenInstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
): QwenInstallOutcome {
  const path = qwenSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  const { text, settings } = readQwenSettings(path);
  const next = change(settings);
  // only the changed values are edited: the rest keeps its formatting, key order and comments
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

/** Merges toolgate's hooks into the scope's Qwen settings file (idempotent, shows the diff). */
export function installQwen(options: QwenInstallOptions): QwenInstallOutcome {
  const command = options.command ?? defaultHookCommand("qwen");
  return update(options, (settings) => addQwenToolgateHooks(settings, command));
}

/** Removes exactly toolgate's hook entries from the scope's Qwen settings file. */
export function uninstallQwen(options: QwenInstallOptions): QwenInstallOutcome {
  return update(options, removeQwenToolgateHooks);
}
