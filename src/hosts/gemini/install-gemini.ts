import { homedir } from "node:os";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../common/hook-command.js";
import { editSettingsFile } from "../common/settings-file.js";
import { addGeminiHooks, removeGeminiHooks } from "./gemini-settings-hooks.js";

export interface GeminiInstallOptions {
  /** `user`: ~/.gemini/settings.json (every project); `project`: .gemini/settings.json (a trusted workspace only) */
  scope: "project" | "local" | "user";
  dryRun: boolean;
  /** the hook command; default runs this toolgate with this node: `"<node>" "<dist/cli/main.js>" hook gemini` */
  command?: string;
  cwd?: string;
  home?: string;
}

export interface GeminiInstallOutcome {
  path: string;
  changed: boolean;
  /** unified-style lines: `+ added`, `- removed`, `  context` */
  diff: string[];
  written: boolean;
  /** the file was deleted: it held nothing but toolgate's entries */
  removed?: boolean;
}

/** Where each scope's Gemini CLI settings live. Gemini has no local (uncommitted) settings file. */
export function geminiSettingsPath(options: { scope: GeminiInstallOptions["scope"]; cwd: string; home: string }) {
  if (options.scope === "local") {
    throw new ToolgateError({
      code: "INPUT_INVALID",
      message:
        "Gemini CLI has no local settings file. Use --user (~/.gemini/settings.json) or --project (.gemini/settings.json).",
    });
  }
  return options.scope === "user"
    ? join(options.home, ".gemini", "settings.json")
    : join(options.cwd, ".gemini", "settings.json");
}

function update(
  options: GeminiInstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
): GeminiInstallOutcome {
  const path = geminiSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  return editSettingsFile({ path, dryRun: options.dryRun, change });
}

/** Merges toolgate's hooks into the scope's Gemini settings file (idempotent), showing the diff. */
export function installGemini(options: GeminiInstallOptions): GeminiInstallOutcome {
  const command = options.command ?? defaultHookCommand("gemini");
  return update(options, (settings) => addGeminiHooks(settings, command));
}

/** Removes exactly toolgate's hook entries from the scope's Gemini settings file. */
export function uninstallGemini(options: GeminiInstallOptions): GeminiInstallOutcome {
  return update(options, removeGeminiHooks);
}
