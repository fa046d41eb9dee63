import { closeSync, constants as fs, fstatSync, openSync, readSync } from "node:fs";

/** Transcripts larger than this are read from their end (the newest lines are the ones a hook needs). */
const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024;

/**
 * A hook's transcript, read safely: only a regular file (a FIFO, a device such as /dev/zero or a directory is
 * never read: opened non-blocking and checked before reading), at most the last 32 MiB (starting at a line
 * boundary). Undefined when it cannot be read.
 */
export function readTranscript(path: string): string | undefined {
  let descriptor: number | undefined;
  try {
    descriptor = openSync(path, fs.O_RDONLY | fs.O_NONBLOCK | fs.O_NOCTTY);
    const stat = fstatSync(descriptor);
    if (!stat.isFile()) return undefined;
    const length = Math.min(stat.size, MAX_TRANSCRIPT_BYTES);
    const buffer = Buffer.allocUnsafe(length);
    let read = 0;
    while (read < length) {
      const count = readSync(descriptor, buffer, read, length - read, stat.size - length + read);
      if (count === 0) break;
      read += count;
    }
    const text = buffer.subarray(0, read).toString("utf8");
    if (length === stat.size) return text;
    const newline = text.indexOf("\n");
    return newline < 0 ? "" : text.slice(newline + 1);
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}
