import { closeSync, openSync, readSync } from "node:fs";

/** the most of a rollout's start read for its first line (`session_meta` carries Codex's instructions: tens of KB) */
const FIRST_LINE_BYTES = 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;

/**
 * The folder a Codex session runs in: `session_meta.payload.cwd`, the first line of its rollout
 * (`transcript_path`). A hook's own `cwd` is the call's: Codex 0.171.0 sends a shell call's `workdir` there, which
 * may lie outside the project (where toolgate's config is not found) or below it (where relative rules would read
 * from there). Undefined when the rollout or its first line cannot be read.
 */
export function codexSessionRoot(transcriptPath: string | null | undefined): string | undefined {
  if (typeof transcriptPath !== "string" || transcriptPath === "") return undefined;
  let descriptor: number | undefined;
  try {
    descriptor = openSync(transcriptPath, "r");
    // in pieces: the first line is usually tens of KB, and a hook reads it at every event
    let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    let length = 0;
    let end = -1;
    while (end < 0 && length < FIRST_LINE_BYTES) {
      if (length === buffer.length) buffer = Buffer.concat([buffer, Buffer.allocUnsafe(buffer.length)]);
      const read = readSync(descriptor, buffer, length, buffer.length - length, length);
      if (read === 0) break;
      end = buffer.subarray(length, length + read).indexOf(10);
      if (end >= 0) end += length;
      length += read;
    }
    if (end < 0) return undefined;
    const first = JSON.parse(buffer.toString("utf8", 0, end)) as { type?: unknown; payload?: { cwd?: unknown } };
    const cwd = first.type === "session_meta" ? first.payload?.cwd : undefined;
    return typeof cwd === "string" && cwd.startsWith("/") ? cwd : undefined;
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
