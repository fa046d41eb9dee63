import { patchPaths } from "../../policy/call-targets.js";
/**
 * The files a Cline `read_files` or `apply_patch` call names, or why they cannot be read (the caller refuses the
 * call then). Each reads every path the input holds, so a rule that denies any of them can refuse the call.
 */
export type PathsReading = { paths: string[] } | { unreadable: string };

/** The path fields of a `read_files` request object (`path`, Cline's `file_path` and `filePath` aliases). */
const PATH_FIELDS = ["path", "file_path", "filePath"] as const;
/** The fields of a `read_files` input that list requests (`files`, `file_paths`, `paths`). */
const LIST_FIELDS = ["files", "file_paths", "paths"] as const;
/** A request object's line range: an object of these alone joins the path before it (Cline's `nU`). */
const RANGE_FIELDS = new Set(["start_line", "end_line"]);

/**
 * Cline 3.0.65's `read_files` (`ReadFilesInputUnionSchema`): a path string; a request `{ path | file_path | filePath,
 * start_line?, end_line? }`; an array of those (strings and requests); or an object whose `files`, `file_paths` or
 * `paths` holds one or an array of them. A range-only object in an array belongs to the path before it.
 */
export function clineReadPaths(input: unknown): PathsReading {
  const paths: string[] = [];
  const why = readRequests(input, paths, true);
  if (why !== undefined) return { unreadable: why };
  return paths.length === 0 ? { unreadable: "it names no file" } : { paths };
}

function readRequests(value: unknown, paths: string[], top: boolean): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isRangeOnly(item)) continue;
      const why = readRequest(item, paths, false);
      if (why !== undefined) return why;
    }
    return undefined;
  }
  return readRequest(value, paths, top);
}

function readRequest(value: unknown, paths: string[], top: boolean): string | undefined {
  if (typeof value === "string") return addPath(value, paths);
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "a file is not a path or a request";
  const record = value as Record<string, unknown>;
  let found = false;
  for (const field of PATH_FIELDS) {
    if (record[field] === undefined) continue;
    if (typeof record[field] !== "string") return `a request's ${field} is not a string`;
    const why = addPath(record[field], paths);
    if (why !== undefined) return why;
    found = true;
  }
  // the lists only at the top (`{ files: [...] }`), as Cline reads them
  if (top) {
    for (const field of LIST_FIELDS) {
      if (record[field] === undefined) continue;
      const why = readRequests(record[field], paths, false);
      if (why !== undefined) return why;
      found = true;
    }
  }
  return found ? undefined : "a request names no path";
}

function addPath(path: string, paths: string[]): string | undefined {
  if (path.trim() === "") return "a path is empty";
  paths.push(path);
  return undefined;
}

function isRangeOnly(value: unknown): boolean {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((key) => RANGE_FIELDS.has(key));
}

/**
 * Cline 3.0.65's `apply_patch` (`ApplyPatchInputUnionSchema`): `{ input: "<patch>" }` or the patch text itself.
 * Every file the patch adds, updates, deletes or moves to, as its grammar's headers name them (`e.ADD`, `e.UPDATE`,
 * `e.DELETE`, `e.MOVE`: the policy's `patchPaths` reads the same four, and Cline too splits on `\n`, drops a trailing
 * `\r` and trims the path).
 */
export function clinePatchPaths(input: unknown): PathsReading {
  const text = typeof input === "string" ? input : stringField(input, "input");
  if (text === undefined) return { unreadable: "it has no patch text (an input string)" };
  const paths: string[] = [];
  for (const path of patchPaths(text)) {
    const why = addPath(path, paths);
    if (why !== undefined) return { unreadable: why };
  }
  return paths.length === 0 ? { unreadable: "its patch names no file" } : { paths };
}

function stringField(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
