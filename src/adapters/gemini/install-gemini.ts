import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { defaultHookCommand } from "../hook-command.js";
import { editJsonText, parseJsonc } from "../json-file-edit.js";
import { lineDiff } from "../line-diff.js";
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

function readSettings(path: string): { text: string; settings: Record<string, unknown> } {
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
  options: GeminiInstallOptions,
  change: (settings: Record<string, unknown>) => Record<string, unknown>,
): GeminiInstallOutcome {
  const path = geminiSettingsPath({
    scope: options.scope,
    cwd: options.cwd ?? process.cwd(),
    home: options.home ?? homedir(),
  });
  const { text, settings } = readSettings(path);
  const next = change(settings);
  // only the changed values are edited: the rest of the file keeps its formatting, key order and comments
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

/** Merges toolgate's hooks into the scope's Gemini settings file (idempotent), showing the diff. */
export function installGemini(options: GeminiInstallOptions): GeminiInstallOutcome {
  const command = options.command ?? defaultHookCommand("gemini");
  return update(options, (settings) => addGeminiHooks(settings, command));
}

/** Removes exactly toolgate's hook entries from the scope's Gemini settings file. */
export function uninstallGemini(options: GeminiInstallOptions): GeminiInstallOutcome {
  return update(options, removeGeminiHooks);
}
