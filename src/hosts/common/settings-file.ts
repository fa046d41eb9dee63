import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
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
  /** the file was deleted: it held nothing but what install writes into a file that did not exist */
  removed?: boolean;
}

/**
 * Reads a host's JSON settings file (JSONC: comments and trailing commas allowed): `{}` when it is missing or empty;
 * CONFIG_INVALID, naming the file, when it is not a JSON object. One reader for every host's JSON settings
 * and hook files. `strict` (a host that reads plain JSON only, such as Claude Code) refuses comments and trailing
 * commas, with `strict` as the reason in the message.
 */
export function readSettingsFile(
  path: string,
  options: { strict?: string } = {},
): { text: string; settings: Record<string, unknown> } {
  if (!existsSync(path)) return { text: "", settings: {} };
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") return { text, settings: {} };
  let value: unknown;
  try {
    value = parseJsonc(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
  } catch (error) {
    throw new ToolgateError({
      code: "CONFIG_INVALID",
      message: `${path} is not a valid JSON object (${(error as Error).message}). Fix or remove it, then run the command again; nothing was changed.`,
      cause: error,
    });
  }
  if (options.strict !== undefined) {
    try {
      JSON.parse(text.replace(/^\uFEFF/, ""));
    } catch {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `${path} has comments or trailing commas: ${options.strict} Remove them, then run the command again; nothing was changed.`,
      });
    }
  }
  return { text, settings: value as Record<string, unknown> };
}

/** What install writes into a settings file that does not exist yet (or is empty) for `value`. */
export function newSettingsText(value: unknown): string {
  return editJsonText({ text: "", before: {}, after: value });
}

/**
 * Writes `text` to `path` as one temp-then-rename step that keeps the file's mode (a 0600 settings file stays
 * 0600), creating its folder when needed.
 */
export function writeFileKeepingMode(path: string, text: string): void {
  let mode: number | undefined;
  try {
    mode = statSync(path).mode & 0o7777;
  } catch {
    mode = undefined;
  }
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.toolgate-${process.pid}.tmp`;
  writeFileSync(temporary, text, mode === undefined ? {} : { mode });
  if (mode !== undefined) chmodSync(temporary, mode);
  renameSync(temporary, path);
}

/** Removes `folder` when it is empty (the settings folder install created with the file); anything in it keeps it. */
function removeEmptyFolder(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty, or not ours to remove: it stays
  }
}

/**
 * Writes the edited text of a settings file and returns what changed. When the edit leaves an empty object in a
 * file whose text was exactly what install writes into a new file (`newSettingsText`), the file held nothing but
 * toolgate's entries, so it is deleted (and its folder, when that is left empty): install then uninstall leaves no
 * `{\n}` behind where there was no file.
 * Nothing is written on a dry run or when nothing changes.
 */
export function writeSettingsEdit(options: {
  path: string;
  dryRun: boolean;
  before: { text: string; value: unknown };
  after: { text: string; value: unknown };
}): SettingsFileEdit {
  const { path } = options;
  const { value } = options.after;
  const empty = typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
  const remove =
    empty &&
    options.after.text !== options.before.text &&
    options.before.text === newSettingsText(options.before.value);
  const nextText = remove ? "" : options.after.text;
  const diff = lineDiff({ before: options.before.text, after: nextText });
  const changed = diff.length > 0;
  let written = false;
  if (changed && !options.dryRun) {
    if (remove) {
      rmSync(path, { force: true });
      removeEmptyFolder(dirname(path));
    } else writeFileKeepingMode(path, nextText);
    written = true;
  }
  return { path, changed, diff, written, ...(remove ? { removed: true } : {}) };
}

/**
 * Applies `change` to a host's settings file: only the changed values are edited (the rest keeps its formatting,
 * key order and comments), the diff compares the file's real text before and after, and the write is
 * temp-then-rename keeping the file's mode. A file that held nothing but what install put in a new file is deleted
 * when the change empties it (`writeSettingsEdit`). Nothing is written on a dry run or when nothing changes.
 */
export function editSettingsFile(options: {
  path: string;
  dryRun: boolean;
  change: (settings: Record<string, unknown>) => Record<string, unknown>;
  /** a host that reads plain JSON only: why comments are refused (`readSettingsFile`) */
  strict?: string;
}): SettingsFileEdit {
  const { path } = options;
  const { text, settings } = readSettingsFile(path, options.strict === undefined ? {} : { strict: options.strict });
  const next = options.change(settings);
  const nextText =
    next === settings || (Object.keys(next).length === 0 && text === "")
      ? text
      : editJsonText({ text, before: settings, after: next });
  return writeSettingsEdit({
    path,
    dryRun: options.dryRun,
    before: { text, value: settings },
    after: { text: nextText, value: next },
  });
}
