import { normalizePath as normalizeSegments } from "../../policy/paths.js";

/**
 * Gemini CLI's own reading of a file tool's path, mirrored so toolgate decides on the file Gemini acts on. Gemini CLI
 * 0.61.0 (bundle/chunk-JDPZ4CE3.js, packages/core/src/utils/paths.ts) resolves `read_file`, `write_file` and `replace`
 * paths as `resolveToRealPath(path.resolve(targetDir, resolveDefensiveToolPath(file_path, targetDir)))`, and `glob`
 * and `grep_search` directories as `resolveToRealPath(path.resolve(targetDir, dir_path))`:
 *
 * - `resolveDefensiveToolPath` drops every NUL character, then drops a leading `@` and the slashes after it, unless
 *   the path as written (or its `@` first segment) exists on disk;
 * - `resolveToRealPath` throws on a NUL character, percent-decodes the whole absolute path with `decodeURIComponent`
 *   (a malformed escape makes it throw, and Gemini's `catch` keeps the path undecoded), resolves it again
 *   (`path.resolve`) and then resolves symbolic links (`robustRealpath`), which throws on a NUL character the decoding
 *   made. Its `file://` branch is never taken here: it is always handed an absolute path.
 *
 * Symbolic links and the existence checks need the disk, which toolgate does not read here: a path with a leading `@`
 * stands for both paths Gemini may act on. Paths are read as POSIX paths (as toolgate's policy reads them). Gemini
 * does not expand `~` (a `~/x` path is `<targetDir>/~/x`). The hook's `cwd` is Gemini's `targetDir`
 * (`getWorkingDir()`; both are the directory Gemini started in).
 */

/** Why a path cannot be read as Gemini reads it (the call is refused: Gemini refuses it too, or toolgate cannot tell). */
export class GeminiPathError extends Error {}

/**
 * Gemini 0.61.0 `resolveDefensiveToolPath(filePath, targetDir)` without its existence checks: the paths Gemini may go
 * on with, the one it takes when neither the path as written nor its `@` first segment exists first.
 */
export function defensiveToolPaths(filePath: string): string[] {
  const cleanPath = filePath.replace(/\0/g, "");
  if (!cleanPath.startsWith("@") || cleanPath.length <= 1) return [cleanPath];
  // `@/x` and `@\x` drop every leading separator; `@x` has none to drop
  const stripped = cleanPath.substring(1).replace(/^[\\/]+/, "");
  return stripped.length > 0 ? [stripped, cleanPath] : [cleanPath];
}

/** Gemini 0.61.0 `resolveToRealPath(pathStr)` for an absolute path, without resolving symbolic links. */
export function geminiRealPath(absolute: string): string {
  if (absolute.includes("\0")) throw new GeminiPathError("it holds a NUL character, which Gemini refuses");
  let decoded = absolute;
  try {
    decoded = decodeURIComponent(absolute);
  } catch {
    // Gemini's `catch {}`: a malformed escape leaves the path undecoded
  }
  if (decoded.includes("\0")) throw new GeminiPathError("it decodes to a NUL character, which Gemini refuses");
  return normalizeSegments(decoded);
}

/** `path.resolve(targetDir, path)` on POSIX, for an absolute `targetDir`. */
function resolveAgainst(targetDir: string, path: string): string {
  return normalizeSegments(path.startsWith("/") ? path : `${targetDir}/${path}`);
}

/** A path toolgate's policy reads from the home directory (`~`, `~/x`); Gemini reads it in its working directory. */
export function isTildePath(path: string): boolean {
  return path === "~" || path.startsWith("~/");
}

/**
 * How a tool reads its path: `defensive` as `read_file`, `write_file` and `replace` read `file_path`; `real` as `glob`
 * and `grep_search` read `dir_path`; `literal` as `list_directory` reads `dir_path` (only `path.resolve`).
 */
export type GeminiPathReading = "defensive" | "real" | "literal";

/**
 * The paths Gemini may act on for a tool's path, absolute, the likeliest first, no repeats; `asWritten` when toolgate's
 * policy reads the path as written as that one path (it resolves a relative path against the same directory), so the
 * call can be decided as it came. Throws `GeminiPathError` where Gemini refuses the path, and for a relative path
 * Gemini would change without an absolute working directory to resolve it against (Gemini always sends one).
 */
export function resolveGeminiPath(
  path: string,
  where: { cwd: string | undefined; reading: GeminiPathReading },
): { paths: string[]; asWritten: boolean } {
  const written = where.reading === "defensive" ? defensiveToolPaths(path) : [path];
  const targetDir = where.cwd?.startsWith("/") ? where.cwd : undefined;
  if (targetDir === undefined && !path.startsWith("/")) {
    const plain = written.length === 1 && written[0] === path && !isTildePath(path);
    if (plain && (where.reading === "literal" || geminiRealPath(`/${path}`) === normalizeSegments(`/${path}`))) {
      return { paths: [path], asWritten: true };
    }
    throw new GeminiPathError("it is relative and the hook event names no absolute working directory");
  }
  // without a working directory the path is absolute, and so is each of its readings (an absolute path has no `@`)
  const base = targetDir ?? "/";
  const paths: string[] = [];
  for (const candidate of written) {
    const absolute = resolveAgainst(base, candidate);
    const resolved = where.reading === "literal" ? absolute : geminiRealPath(absolute);
    if (!paths.includes(resolved)) paths.push(resolved);
  }
  const asWritten = paths.length === 1 && !isTildePath(path) && paths[0] === resolveAgainst(base, path);
  return { paths, asWritten };
}
