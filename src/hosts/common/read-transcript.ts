import { closeSync, constants as fs, fstatSync, openSync, readSync } from "node:fs";
import type { TranscriptLines } from "./hook-host.js";
import { CURSOR_CHECK_BYTES, type TranscriptCursor } from "./transcript-cursor.js";

/** Transcripts larger than this are read from their end (the newest lines are the ones a hook needs). */
const MAX_TRANSCRIPT_BYTES = 32 * 1024 * 1024;
const NEWLINE = 0x0a;
/** from this many needles on, `linesWith` searches their common prefix once (when it has MIN_PREFIX_BYTES) */
const MANY_NEEDLES = 4;
const MIN_PREFIX_BYTES = 4;

/**
 * A hook's transcript, read safely: only a regular file (a FIFO, a device such as /dev/zero or a directory is
 * never read: opened non-blocking and checked before reading), at most the last 32 MiB (starting at a line
 * boundary). Undefined when it cannot be read.
 */
export function readTranscript(path: string): string | undefined {
  return readTranscriptBytes(path)?.bytes.toString("utf8");
}

/**
 * The same transcript as lines to search (`HookContext.openTranscript`): the bytes are searched for each needle
 * and only the lines that hold one are decoded, so a Stop in a long session does not decode megabytes of tool output
 * to find its few denials. A line's `at` is its byte offset. With `from` (a cursor a previous read gave as `next`),
 * `linesWith` searches only the lines appended since, unless the bytes before it changed.
 */
export function openTranscript(path: string, from?: TranscriptCursor): TranscriptLines | undefined {
  return linesOf(readTranscriptBytes(path), from);
}

/**
 * `openTranscript` for one hook event: the file is read once, however many times the event opens it (a Stop's
 * reconcile and its wasted tokens search the same bytes: a second read of a 2 MB transcript, and a second view of it
 * that could differ from the first, is saved). Make one per event, never one per process.
 */
export function transcriptOpenerForOneEvent(): (path: string, from?: TranscriptCursor) => TranscriptLines | undefined {
  let last: { path: string; read: ReturnType<typeof readTranscriptBytes> } | undefined;
  return (path, from) => {
    if (last?.path !== path) last = { path, read: readTranscriptBytes(path) };
    return linesOf(last.read, from);
  };
}

function linesOf(
  read: { bytes: Buffer; whole: boolean } | undefined,
  from: TranscriptCursor | undefined,
): TranscriptLines | undefined {
  if (read === undefined) return undefined;
  const { bytes, whole } = read;
  // `linesWith` searches only after the cursor when the bytes before it are still the ones it saw (`lastWith`
  // searches the whole text: a call made before the cursor may be answered after it)
  const start = from !== undefined && whole && cursorHolds(bytes, from) ? from.offset : 0;
  // the next cursor: after the last complete line (a partial last line is read again next time)
  const end = whole ? bytes.lastIndexOf(NEWLINE) + 1 : 0;
  const lineAt = (start: number): string => {
    const end = bytes.indexOf(NEWLINE, start);
    return bytes.toString("utf8", start, end < 0 ? bytes.length : end);
  };
  return {
    linesWith(needles) {
      const starts = new Set<number>();
      const patterns = needles.map((needle) => Buffer.from(needle, "utf8")).filter((pattern) => pattern.length > 0);
      const prefix = patterns.length >= MANY_NEEDLES ? commonPrefix(patterns) : undefined;
      if (prefix !== undefined && prefix.length >= MIN_PREFIX_BYTES) {
        // many needles with a common prefix (the call ids a Stop waits for): one search for the prefix, each hit
        // compared with the needles (as latin1 text: byte for byte), instead of one search of the text per needle
        const wanted = new Set(patterns.map((pattern) => pattern.toString("latin1")));
        const lengths = [...new Set(patterns.map((pattern) => pattern.length))];
        for (let hit = bytes.indexOf(prefix, start); hit >= 0; hit = bytes.indexOf(prefix, hit + 1))
          if (lengths.some((length) => wanted.has(bytes.toString("latin1", hit, hit + length))))
            starts.add(bytes.lastIndexOf(NEWLINE, hit) + 1);
      } else {
        for (const pattern of patterns) {
          for (let hit = bytes.indexOf(pattern, start); hit >= 0; ) {
            const start = bytes.lastIndexOf(NEWLINE, hit) + 1;
            starts.add(start);
            const end = bytes.indexOf(NEWLINE, hit);
            if (end < 0) break;
            hit = bytes.indexOf(pattern, end + 1);
          }
        }
      }
      return [...starts].sort((a, b) => a - b).map((start) => ({ line: lineAt(start), at: start }));
    },
    ...(end > 0 ? { next: { offset: end, check: checkBefore(bytes, end) } } : {}),
    lastWith(needle, before, pick) {
      const pattern = Buffer.from(needle, "utf8");
      if (pattern.length === 0) return undefined;
      // a hit must lie wholly before `before`: the line starting there is not searched
      for (let from = before - pattern.length; from >= 0; ) {
        const hit = bytes.lastIndexOf(pattern, from);
        if (hit < 0) return undefined;
        const start = bytes.lastIndexOf(NEWLINE, hit) + 1;
        const value = pick(lineAt(start));
        if (value !== undefined) return value;
        from = start - 1 - pattern.length;
      }
      return undefined;
    },
  };
}

/** Whether the bytes before the cursor's offset are the ones it was made after. */
function cursorHolds(bytes: Buffer, cursor: TranscriptCursor): boolean {
  return (
    cursor.offset > 0 &&
    cursor.offset <= bytes.length &&
    bytes[cursor.offset - 1] === NEWLINE &&
    checkBefore(bytes, cursor.offset) === cursor.check
  );
}

/** The line before `offset` (its last `CURSOR_CHECK_BYTES` bytes), base64: a transcript's lines hold unique ids. */
function checkBefore(bytes: Buffer, offset: number): string {
  const lineStart = offset >= 2 ? bytes.lastIndexOf(NEWLINE, offset - 2) + 1 : 0;
  return bytes.toString("base64", Math.max(lineStart, offset - CURSOR_CHECK_BYTES), offset);
}

/**
 * The transcript's bytes (the last 32 MiB from a line boundary; `whole` when that is the whole file, so offsets are
 * the file's), or undefined when it is not a readable file.
 */
function readTranscriptBytes(path: string): { bytes: Buffer; whole: boolean } | undefined {
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
    const bytes = buffer.subarray(0, read);
    if (length === stat.size) return { bytes, whole: true };
    const newline = bytes.indexOf(NEWLINE);
    return { bytes: newline < 0 ? Buffer.alloc(0) : bytes.subarray(newline + 1), whole: false };
  } catch {
    return undefined;
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/** The bytes every pattern starts with. */
function commonPrefix(patterns: readonly Buffer[]): Buffer {
  const [first] = patterns;
  if (first === undefined) return Buffer.alloc(0);
  let length = first.length;
  for (const pattern of patterns) {
    let same = 0;
    while (same < length && same < pattern.length && pattern[same] === first[same]) same += 1;
    length = same;
  }
  return first.subarray(0, length);
}
