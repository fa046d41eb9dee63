/**
 * Pure POSIX path helpers (no node:path): the working directory and home directory are always inputs.
 */

export interface PathContext {
  /** absolute working directory; relative paths resolve against it */
  cwd: string;
  /** absolute home directory, for `~` */
  homeDir: string;
}

/** Resolves `path` to an absolute, normalised POSIX path (`~`, `.`, `..`, repeated and trailing slashes). */
export function resolvePath(path: string, context: PathContext): string {
  let absolute: string;
  if (path === "~" || path.startsWith("~/")) absolute = `${context.homeDir}/${path.slice(2)}`;
  else if (path.startsWith("/")) absolute = path;
  else absolute = `${context.cwd}/${path}`;
  // a backslash is read as a slash (the replace only runs when there is one)
  return normalizePath(absolute.includes("\\") ? absolute.replace(/\\/g, "/") : absolute);
}

export function normalizePath(absolute: string): string {
  return isNormalized(absolute) ? absolute : normalizeSegments(absolute);
}

/** `normalizePath` segment by segment, for every path (the reference the already-normalised check is tested against). */
export function normalizeSegments(absolute: string): string {
  const parts: string[] = [];
  for (const part of absolute.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return `/${parts.join("/")}`;
}

const SLASH = 47;

/**
 * A slash that begins an empty, `.` or `..` segment, or ends the path: `//`, `/./`, `/../`, a trailing `/`, `/.` or
 * `/..`. A path that begins with a slash and holds none of these is normalised.
 */
const NOT_NORMALISED = /\/\.{0,2}(?:\/|$)/;

/**
 * Whether `normalizePath` would return the path unchanged: `/`, or a slash before every segment, and no empty,
 * `.` or `..` segment (no `//`, no trailing slash). One test of a compiled pattern, no allocation (its scan costs
 * fewer instructions per character than a `charCodeAt` loop in optimised JavaScript).
 */
function isNormalized(path: string): boolean {
  if (path === "/") return true;
  return path.charCodeAt(0) === SLASH && !NOT_NORMALISED.test(path);
}

/** Whether `path` is `directory` or lies below it (both absolute and normalised). */
export function isInside(path: string, directory: string): boolean {
  if (directory === "/") return true;
  // `path.startsWith(`${directory}/`)` without building that string
  const length = directory.length;
  return path === directory || (path.charCodeAt(length) === SLASH && path.startsWith(directory));
}

export function isInsideAny(path: string, directories: readonly string[]): boolean {
  for (const directory of directories) if (isInside(path, directory)) return true;
  return false;
}

export function parentDirectory(path: string): string {
  const index = path.lastIndexOf("/");
  return index <= 0 ? "/" : path.slice(0, index);
}

/** The deepest directory containing every path (paths absolute and normalised). */
export function commonDirectory(paths: readonly string[]): string {
  if (paths.length === 0) return "/";
  let common = (paths[0] as string).split("/");
  for (const path of paths.slice(1)) {
    const parts = path.split("/");
    let index = 0;
    while (index < common.length && index < parts.length && common[index] === parts[index]) index++;
    common = common.slice(0, index);
  }
  const joined = common.join("/");
  return joined === "" ? "/" : joined;
}
