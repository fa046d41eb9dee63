import { toolFamily } from "../core/tool-families.js";
import { type RedactOptions, redactText, redactValue } from "./redact.js";

/**
 * A short, redacted description of a tool call's input for people and the model: the command of a shell call, the
 * path of a file call, the URL of a web fetch, the pattern of a search, otherwise compact JSON. Redacted first, then
 * cut to `maxLength` code points (200) with an ellipsis, never inside a surrogate pair.
 */

export const SUMMARY_MAX_LENGTH = 200;

const FIELDS: Readonly<Record<string, readonly string[]>> = {
  shell: ["command", "cmd", "script"],
  read: ["file_path", "filePath", "path", "absolute_path", "notebook_path", "file", "paths", "dir_path"],
  edit: ["file_path", "filePath", "path", "absolute_path", "notebook_path", "file"],
  web: ["url", "query", "prompt"],
  search: ["pattern", "query", "regex", "glob"],
};

function asRecord(input: unknown): Record<string, unknown> | undefined {
  return input !== null && typeof input === "object" && !Array.isArray(input)
    ? (input as Record<string, unknown>)
    : undefined;
}

function fieldText(value: unknown): string | undefined {
  if (typeof value === "string" && value.length > 0) return value;
  if (Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string")) {
    return value.join(" ");
  }
  return undefined;
}

/** `*** Update File: src/a.ts` lines of an apply_patch input */
function patchPaths(input: Record<string, unknown>): string | undefined {
  const patch = fieldText(input["patch"]) ?? fieldText(input["input"]) ?? fieldText(input["patchText"]);
  if (patch === undefined) return undefined;
  const paths = [...patch.matchAll(/^\*\*\* (?:Add|Update|Delete) File: ([^\n]{1,500})$/gm)].map((m) => m[1]);
  return paths.length > 0 ? paths.join(", ") : undefined;
}

function pickField(tool: string, input: unknown): string | undefined {
  if (typeof input === "string") return input;
  const record = asRecord(input);
  if (record === undefined) return undefined;
  const family = toolFamily(tool);
  const fields = FIELDS[family];
  if (fields === undefined) return undefined;
  for (const field of fields) {
    const text = fieldText(record[field]);
    if (text === undefined) continue;
    if (family === "search") {
      const where = fieldText(record["path"]) ?? fieldText(record["dir_path"]) ?? fieldText(record["include"]);
      return where === undefined || where === text ? text : `${text} in ${where}`;
    }
    return text;
  }
  return family === "edit" ? patchPaths(record) : undefined;
}

/** Cut a text to at most `maxLength` code points, ending with `…` when cut; never splits a surrogate pair. */
export function truncateCodePoints(text: string, maxLength: number): string {
  if (text.length <= maxLength) return text;
  let count = 0;
  let cut = 0;
  for (const codePoint of text) {
    count += 1;
    if (count > maxLength) return `${text.slice(0, cut)}…`;
    if (count < maxLength) cut += codePoint.length;
  }
  return text;
}

function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** The redacted, bounded summary of a tool call's input. */
export function summarizeInput(tool: string, input: unknown, options?: RedactOptions & { maxLength?: number }): string {
  const maxLength = options?.maxLength ?? SUMMARY_MAX_LENGTH;
  const field = pickField(tool, input);
  const text = field !== undefined ? redactText(field, options) : compactJson(redactValue(input, options));
  return truncateCodePoints(text.replace(/\s+/g, " ").trim(), maxLength);
}
