import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { editJsonText, parseJsonc } from "./json-file-edit.js";
import { lineDiff } from "./line-diff.js";

/** What `toolgate install` / `uninstall` did to one host settings file. */
export interface SettingsFileEdit {
  path: string;
  changed: boolean;
  /** `+ added`, `- removed`, `  context` lines */
  diff: string[];
  written: boolean;
}

/**
 * Reads a host's JSON settings file (JSONC: comments and trailing commas allowed): `{}` when it is missing or empty;
 * CONFIG_INVALID, naming the file, when it is not a JSON object. One reader for every host's JSON settings
 * and hook files.
 */
export function readSettingsFile(path: string): { text: string; settings: Record<string, unknown> } {
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

/**
 * Applies `change` to a host's settings file: only the changed values are edited (the rest keeps its formatting,
 * key order and comments), the diff compares the file's real text before and after, and the write is
 * temp-then-rename. Nothing is written on a dry run or when nothing changes.
 */
export function editSettingsFile(options: {
  path: string;
  dryRun: boolean;
  change: (settings: Record<string, unknown>) => Record<string, unknown>;
}): SettingsFileEdit {
  const { path } = options;
  const { text, settings } = readSettingsFile(path);
  const next = options.change(settings);
  const nextText =
    next === settings || (Object.keys(next).length === 0 && text === "")
      ? text
      : editJsonText({ text, before: settings, after: next });
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
