import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../common/hook-command.js";
import { editSettingsFile, readSettingsFile } from "../common/settings-file.js";
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
  /** the file was deleted: it held nothing but toolgate's entries */
  removed?: boolean;
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
export const readQwenSettings = readSettingsFile;

function update(
  options: QwenInstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
): QwenInstallOutcome {
  const path = qwenSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change });
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
