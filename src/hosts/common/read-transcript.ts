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
          const anchor = anchorOf(pattern);
          for (let hit = indexOfPattern(bytes, pattern, start, anchor); hit >= 0; ) {
            const start = bytes.lastIndexOf(NEWLINE, hit) + 1;
            starts.add(start);
            const end = bytes.indexOf(NEWLINE, hit);
            if (end < 0) break;
            hit = indexOfPattern(bytes, pattern, end + 1, anchor);
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

const UNDERSCORE = 0x5f;
/** Node searches a pattern shorter than 8 bytes by its first byte (memchr), a longer one with Boyer-Moore-Horspool */
const MAX_ANCHOR_BYTES = 7;
const MIN_ANCHOR_BYTES = 3;

/**
 * The part of a needle to search a transcript for: from its last `_` on (at most 7 bytes), as `_error"` for
 * `"is_error"`. A transcript is JSON whose keys Claude Code writes in camelCase and whose text is mostly prose, quotes
 * and escapes: `_` is rare there, and Node searches a pattern under 8 bytes by its first byte with memchr, a fast
 * pass over 2 MB. The whole needle, searched with Boyer-Moore-Horspool, shifts by a byte or two at each of the many
 * letters it ends with (`r`, `o`, `e`): measured on the 2.1 MB bench transcript, 0.9 ms for `"is_error"`, 0.07 ms for
 * `_error"`. (A text dense with `_`, a `_` every few bytes, makes the anchor slower: 2.4 ms against 1 ms on a
 * synthetic 2 MB one.) Undefined when the needle has no such part: it is searched whole.
 */
function anchorOf(pattern: Buffer): { bytes: Buffer; offset: number } | undefined {
  const offset = pattern.lastIndexOf(UNDERSCORE);
  if (offset < 0 || pattern.length - offset < MIN_ANCHOR_BYTES) return undefined;
  return { bytes: pattern.subarray(offset, offset + MAX_ANCHOR_BYTES), offset };
}

/**
 * Where `pattern` first occurs in `bytes` at or after `from`, as `bytes.indexOf(pattern, from)`: found by its anchor,
 * each place the anchor occurs compared with the whole pattern (every occurrence of the pattern holds its anchor at the
 * same offset, so none is missed).
 */
function indexOfPattern(
  bytes: Buffer,
  pattern: Buffer,
  from: number,
  anchor: { bytes: Buffer; offset: number } | undefined,
): number {
  if (anchor === undefined) return bytes.indexOf(pattern, from);
  for (let hit = bytes.indexOf(anchor.bytes, from + anchor.offset); hit >= 0; ) {
    const at = hit - anchor.offset;
    if (at + pattern.length > bytes.length) return -1;
    if (bytes.compare(pattern, 0, pattern.length, at, at + pattern.length) === 0) return at;
    hit = bytes.indexOf(anchor.bytes, hit + 1);
  }
  return -1;
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
