import { normalizePath as normalizeSegments } from "../../policy/paths.js";

/**
 * pi's own reading of a tool's `path`, mirrored so toolgate decides on the file pi acts on. pi
 * (`@earendil-works/pi-coding-agent` 1.6.0) resolves every path argument of `read`, `write`, `edit`, `ls`, `grep` and
 * `find` with `resolveToCwd(path, cwd)` (dist/core/tools/path-utils.js), which is `resolvePath(path, cwd,
 * { normalizeUnicodeSpaces: true, stripAtPrefix: true })` and `normalizePath` (dist/utils/paths.js): Unicode spaces
 * become plain spaces, one leading `@` is dropped, on Windows a Git Bash / WSL drive path becomes a drive path, `~` is
 * the home directory, a `file://` URL is its path (node's `fileURLToPath`), and a relative path is resolved against
 * the working directory. `read` then tries look-alike file names (`resolveReadPath`) that only exist on disk; those are
 * not mirrored. A path pi would fail to read (a malformed `file://` URL) cannot be decided: it is refused.
 */

/** What pi's path functions read from the process pi runs in. */
export interface PiPathSystem {
  /** `process.platform` */
  platform: string;
  /** `os.homedir()`; absent: a `~` path is left to toolgate's policy, which reads `~` the same way */
  homeDir?: string;
}

/** Why a path cannot be read as pi reads it (the call is refused). */
export class PiPathError extends Error {}

/** pi 1.6.0 `UNICODE_SPACES` (dist/utils/paths.js) */
const UNICODE_SPACES = /[\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;

/** pi 1.6.0 `normalizeWindowsShellPath` (dist/utils/paths.js): `/c/x`, `/mnt/c/x`, `/cygdrive/c/x` become `C:\x`. */
function normalizeWindowsShellPath(filePath: string): string {
  if (!filePath.startsWith("/") || filePath.startsWith("//") || filePath.includes("\\")) return filePath;
  const match = filePath.match(/^\/(?:mnt\/|cygdrive\/)?([a-z])(?:\/(.*))?$/i);
  if (!match) return filePath;
  const suffix = match[2]?.replaceAll("/", "\\");
  return `${(match[1] as string).toUpperCase()}:\\${suffix ?? ""}`;
}

/**
 * node's `fileURLToPath` (node 22, the version pi 1.6.0 requires: `getPathFromURLPosix`, `getPathFromURLWin32`) with
 * the same WHATWG `URL` parser; it throws where node throws. A Windows UNC URL (`file://host/share`) is refused: node
 * decodes its host name with `domainToUnicode`, which toolgate does not mirror.
 */
function fileUrlToPath(url: string, platform: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new PiPathError(`it is not a valid file URL: ${url}`);
  }
  if (parsed.protocol !== "file:") throw new PiPathError(`it is not a file URL: ${url}`);
  const windows = platform === "win32";
  const encodedSeparator = windows ? /%2f|%5c/i : /%2f/i;
  if (encodedSeparator.test(parsed.pathname)) throw new PiPathError(`its file URL encodes a path separator: ${url}`);
  if (parsed.hostname !== "") throw new PiPathError(`its file URL names a host: ${url}`);
  let path: string;
  try {
    path = decodeURIComponent(windows ? parsed.pathname.replaceAll("/", "\\") : parsed.pathname);
  } catch {
    throw new PiPathError(`its file URL has a malformed escape: ${url}`);
  }
  if (!windows) return path;
  const letter = (path.codePointAt(1) ?? 0) | 0x20;
  if (letter < 0x61 || letter > 0x7a || path.charAt(2) !== ":")
    throw new PiPathError(`its file URL is not absolute: ${url}`);
  return path.slice(1);
}

/** Whether a normalised path is a `~` path left for the policy (no home directory known). */
function isTildePath(path: string, system: PiPathSystem): boolean {
  return path === "~" || path.startsWith("~/") || (system.platform === "win32" && path.startsWith("~\\"));
}

/**
 * pi 1.6.0 `normalizePath(input, options)` (dist/utils/paths.js): `toolPath` is the options `resolveToCwd` passes
 * (`normalizeUnicodeSpaces`, `stripAtPrefix`); without it, the defaults `resolvePath` uses for the working directory.
 */
export function normalizePiPath(input: string, options: { system: PiPathSystem; toolPath: boolean }): string {
  const { system } = options;
  let normalized = input;
  if (options.toolPath) normalized = normalized.replace(UNICODE_SPACES, " ");
  if (options.toolPath && normalized.startsWith("@")) normalized = normalized.slice(1);
  if (system.platform === "win32") normalized = normalizeWindowsShellPath(normalized);
  if (isTildePath(normalized, system)) {
    const home = system.homeDir;
    if (home === undefined) return normalized;
    const separator = system.platform === "win32" ? "\\" : "/";
    return normalized === "~" ? home : `${home}${separator}${normalized.slice(2)}`;
  }
  if (/^file:\/\//.test(normalized)) return fileUrlToPath(normalized, system.platform);
  return normalized;
}

/**
 * pi 1.6.0 `resolveToCwd(filePath, cwd)` (dist/core/tools/path-utils.js): the absolute, normalised path pi acts on.
 * Unresolved where toolgate's policy resolves it the same way: a `~` path without a known home directory, a relative
 * path without a working directory, and on Windows (toolgate's policy reads paths as POSIX). Throws `PiPathError`.
 */
export function resolvePiPath(path: string, where: { cwd: string | undefined; system: PiPathSystem }): string {
  const { system } = where;
  const normalized = normalizePiPath(path, { system, toolPath: true });
  if (system.platform === "win32" || isTildePath(normalized, system)) return normalized;
  if (normalized.startsWith("/")) return normalizeSegments(normalized);
  if (where.cwd === undefined || where.cwd === "") return normalized;
  const base = normalizePiPath(where.cwd, { system, toolPath: false });
  return base.startsWith("/") ? normalizeSegments(`${base}/${normalized}`) : normalized;
}
