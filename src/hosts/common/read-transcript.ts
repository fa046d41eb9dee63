import { closeSync, constants as fs, fstatSync, openSync, readSync } from "node:fs";
import { type HookContext, TranscriptChangedError, type TranscriptLines } from "./hook-host.js";
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
 * The same transcript as lines to search (`HookContext.openTranscript`), read from the file as the searches need it:
 * each search reads the bytes it covers through a window of `CHUNK_BYTES` (`TranscriptFile`), and only the lines
 * that hold a needle are decoded. So a Stop in a long session does not decode megabytes of tool output to find its
 * few denials, a search after a cursor reads only what was appended since, and no event holds the whole file in
 * memory (a 2 MB transcript read whole costs a new 2 MB buffer, and its page faults, on every event). A line's `at`
 * is its byte offset. With `from` (a cursor a previous read gave as `next`), `linesWith` searches only the lines
 * appended since, unless the bytes before it changed. `chunkBytes` sets the window (tests use tiny ones); every call
 * opens the file as it stands (`again` changes nothing here).
 */
export function openTranscript(
  path: string,
  from?: TranscriptCursor,
  options: { chunkBytes?: number; again?: boolean } = {},
): TranscriptLines | undefined {
  const file = TranscriptFile.open(path, options.chunkBytes ?? CHUNK_BYTES);
  return file === undefined ? undefined : linesOf(file, from);
}

/**
 * `openTranscript` for one hook event: every open of a path searches the same view of it, the file as it stood at
 * the event's first open (its length then; bytes the host appends meanwhile are left to the next event, and a file
 * replaced or cut meanwhile fails the search instead of mixing two files), through one window, so a Stop's reconcile
 * and its wasted tokens do not each start cold; `again` opens the file as it stands now, and later opens search that
 * view. Make one per event, never one per process.
 */
export function transcriptOpenerForOneEvent(): NonNullable<HookContext["openTranscript"]> {
  let last: { path: string; file: TranscriptFile | undefined } | undefined;
  return (path, from, options) => {
    if (last?.path !== path || options?.again === true) last = { path, file: TranscriptFile.open(path, CHUNK_BYTES) };
    return last.file === undefined ? undefined : linesOf(last.file, from);
  };
}

function linesOf(bytes: TranscriptFile, from: TranscriptCursor | undefined): TranscriptLines {
  const { whole } = bytes;
  // `linesWith` searches only after the cursor when the bytes before it are still the ones it saw (`lastWith`
  // searches the whole text: a call made before the cursor may be answered after it)
  const start = from !== undefined && whole && cursorHolds(bytes, from) ? from.offset : 0;
  // the next cursor: after the last complete line (a partial last line is read again next time)
  const end = whole && bytes.length > 0 ? bytes.lastIndexOf(NEWLINE, bytes.length - 1) + 1 : 0;
  const lineAt = (start: number): string => {
    const end = bytes.indexOf(NEWLINE, start);
    return bytes.text("utf8", start, end < 0 ? bytes.length : end);
  };
  return {
    linesWith(needles) {
      // each line is decoded when the search finds it, while the window holds it: decoded after the search, in file
      // order, the lines would be read through the window a second time from the file's start
      const found = new Map<number, string>();
      const patterns = needles.map((needle) => Buffer.from(needle, "utf8")).filter((pattern) => pattern.length > 0);
      const prefix = patterns.length >= MANY_NEEDLES ? commonPrefix(patterns) : undefined;
      if (prefix !== undefined && prefix.length >= MIN_PREFIX_BYTES) {
        // many needles with a common prefix (the call ids a Stop waits for): one search for the prefix, each hit
        // compared with the needles (as latin1 text: byte for byte), instead of one search of the text per needle
        const wanted = new Set(patterns.map((pattern) => pattern.toString("latin1")));
        const lengths = [...new Set(patterns.map((pattern) => pattern.length))];
        for (let hit = bytes.indexOf(prefix, start); hit >= 0; hit = bytes.indexOf(prefix, hit + 1)) {
          if (!lengths.some((length) => wanted.has(bytes.text("latin1", hit, Math.min(hit + length, bytes.length)))))
            continue;
          const lineStart = bytes.lastIndexOf(NEWLINE, hit) + 1;
          if (!found.has(lineStart)) found.set(lineStart, lineAt(lineStart));
        }
      } else {
        for (const pattern of patterns) {
          const anchor = anchorOf(pattern);
          for (let hit = indexOfPattern(bytes, pattern, start, anchor); hit >= 0; ) {
            const lineStart = bytes.lastIndexOf(NEWLINE, hit) + 1;
            const end = bytes.indexOf(NEWLINE, hit);
            if (!found.has(lineStart))
              found.set(lineStart, bytes.text("utf8", lineStart, end < 0 ? bytes.length : end));
            if (end < 0) break;
            hit = indexOfPattern(bytes, pattern, end + 1, anchor);
          }
        }
      }
      return [...found].sort((a, b) => a[0] - b[0]).map(([at, line]) => ({ line, at }));
    },
    ...(end > 0 ? { next: { offset: end, check: checkBefore(bytes, end) } } : {}),
    searchedText: () => bytes.text("utf8", start, bytes.length),
    *eachLine(keepBytes) {
      for (let at = 0; at < bytes.length; ) {
        const newline = bytes.indexOf(NEWLINE, at);
        const end = newline < 0 ? bytes.length : newline;
        if (end > at && (keepBytes === undefined || keepBytes(bytes.bytesOf(at, end))))
          yield bytes.text("utf8", at, end);
        at = end + 1;
      }
    },
    lastWith(needle, before, pick) {
      const pattern = Buffer.from(needle, "utf8");
      if (pattern.length === 0) return undefined;
      // a hit must lie wholly before `before`: the line starting there is not searched
      for (let from = Math.min(before, bytes.length) - pattern.length; from >= 0; ) {
        const hit = bytes.lastIndexOf(pattern, from);
        if (hit < 0) return undefined;
        const start = bytes.lastIndexOf(NEWLINE, hit) + 1;
        const value = pick(lineAt(start), start);
        if (value !== undefined) return value;
        from = start - 1 - pattern.length;
      }
      return undefined;
    },
  };
}

/** How much of a transcript a search reads at a time (one window, read again as the search moves on). */
const CHUNK_BYTES = 256 * 1024;

/**
 * A transcript file as a byte sequence to search, read through a window as searches move (forward or back) rather
 * than whole: the view is the file's last 32 MiB from a line boundary as it stood when opened (`length` fixed then,
 * offsets counted from the view's start). Each synchronous search opens the path again, checks that it is still the
 * same file, at least as long, and holds that descriptor until the search ends (closed in a microtask): a file
 * replaced or cut between searches throws (the caller records nothing it did not see, and moves no cursor); one
 * appended to is read as it was. Holds no descriptor between searches.
 */
class TranscriptFile {
  /** the window's storage (grown only for a needle longer than a chunk) */
  private storage = Buffer.alloc(0);
  /** the bytes the window holds: the view's offsets [windowStart, windowStart + window.length) */
  private window = Buffer.alloc(0);
  private windowStart = 0;

  private constructor(
    private readonly path: string,
    private readonly identity: { dev: number; ino: number; size: number },
    /** the file offset the view starts at */
    private readonly base: number,
    readonly length: number,
    /** whether the view is the whole file (its offsets are the file's) */
    readonly whole: boolean,
    private readonly chunkBytes: number,
  ) {}

  /** The view of a regular file (a FIFO, a device or a directory is never read), or undefined when there is none. */
  static open(path: string, chunkBytes: number): TranscriptFile | undefined {
    let descriptor: number | undefined;
    try {
      descriptor = openSync(path, fs.O_RDONLY | fs.O_NONBLOCK | fs.O_NOCTTY);
      const stat = fstatSync(descriptor);
      if (!stat.isFile()) return undefined;
      const identity = { dev: stat.dev, ino: stat.ino, size: stat.size };
      const chunk = Math.max(1, Math.floor(chunkBytes));
      if (stat.size <= MAX_TRANSCRIPT_BYTES) return new TranscriptFile(path, identity, 0, stat.size, true, chunk);
      // the last 32 MiB from the first line that starts in them (none: nothing to search)
      const tail = new TranscriptFile(
        path,
        identity,
        stat.size - MAX_TRANSCRIPT_BYTES,
        MAX_TRANSCRIPT_BYTES,
        false,
        chunk,
      );
      const newline = tail.indexOf(NEWLINE, 0);
      const base = newline < 0 ? stat.size : stat.size - MAX_TRANSCRIPT_BYTES + newline + 1;
      return new TranscriptFile(path, identity, base, stat.size - base, false, chunk);
    } catch {
      return undefined;
    } finally {
      if (descriptor !== undefined) closeSync(descriptor);
    }
  }

  /** the first place at or after `from` where `value` (a byte or bytes) starts, as `Buffer.indexOf`; -1 when none */
  indexOf(value: number | Buffer, from: number): number {
    const size = typeof value === "number" ? 1 : value.length;
    for (let at = Math.max(0, from); at + size <= this.length; ) {
      if (at < this.windowStart || at + size > this.windowEnd) this.load(at, size);
      // Buffer.indexOf finds only a match wholly in the window: one cut by its end is found from the next window
      const hit = this.window.indexOf(value, at - this.windowStart);
      if (hit >= 0) return this.windowStart + hit;
      if (this.windowEnd >= this.length) return -1;
      at = this.windowEnd - size + 1;
    }
    return -1;
  }

  /** the last place at or before `from` (>= 0) where `value` starts, as `Buffer.lastIndexOf`; -1 when none */
  lastIndexOf(value: number | Buffer, from: number): number {
    const size = typeof value === "number" ? 1 : value.length;
    if (from < 0) return -1;
    // every match starting at or before `from` ends at or before `end`
    for (let end = Math.min(from + size, this.length); end - size >= 0; ) {
      if (end > this.windowEnd || end - size < this.windowStart)
        this.load(Math.max(0, end - Math.max(this.chunkBytes, size)), size, end);
      const hit = this.window.lastIndexOf(value, end - size - this.windowStart);
      if (hit >= 0) return this.windowStart + hit;
      if (this.windowStart === 0) return -1;
      end = this.windowStart + size - 1;
    }
    return -1;
  }

  /** whether `pattern` occurs at `at` */
  equals(pattern: Buffer, at: number): boolean {
    if (at < 0 || at + pattern.length > this.length) return false;
    if (at < this.windowStart || at + pattern.length > this.windowEnd) this.load(at, pattern.length);
    const offset = at - this.windowStart;
    return this.window.compare(pattern, 0, pattern.length, offset, offset + pattern.length) === 0;
  }

  /** the bytes from `start` to `end`, decoded */
  text(encoding: BufferEncoding, start: number, end: number): string {
    // a line the window does not hold (longer than it, or across its edge) is read on its own
    return this.bytesOf(start, end).toString(encoding);
  }

  /** the bytes from `start` to `end`: the window's own (valid until it moves) when it holds them, else a copy */
  bytesOf(start: number, end: number): Buffer {
    if (start >= this.windowStart && end <= this.windowEnd)
      return this.window.subarray(start - this.windowStart, end - this.windowStart);
    const bytes = Buffer.allocUnsafe(end - start);
    this.read(bytes, start);
    return bytes;
  }

  /** the view's offset just past the window */
  private get windowEnd(): number {
    return this.windowStart + this.window.length;
  }

  /** Fills the window from `start`: `chunkBytes`, at least `minimum`, never past `end` (the view's end). */
  private load(start: number, minimum: number, end = this.length): void {
    const count = Math.min(Math.max(this.chunkBytes, minimum), end - start);
    if (this.storage.length < count) this.storage = Buffer.allocUnsafe(Math.max(count, this.chunkBytes));
    // emptied first: a failed read leaves no window behind
    this.window = this.storage.subarray(0, 0);
    this.read(this.storage.subarray(0, count), start);
    this.window = this.storage.subarray(0, count);
    this.windowStart = start;
  }

  /** the file, open for the reads of one synchronous search (closed in a microtask after its first read) */
  private descriptor: number | undefined;

  /** Reads `into.length` bytes of the view from `start`; throws when the file is no longer the one opened. */
  private read(into: Buffer, start: number): void {
    const descriptor = this.openForReads();
    let read = 0;
    while (read < into.length) {
      const count = readSync(descriptor, into, read, into.length - read, this.base + start + read);
      if (count === 0) throw new TranscriptChangedError(this.path);
      read += count;
    }
  }

  /**
   * The file, opened again and checked to be the one this view was made of (the same file, at least as long), held
   * until the current synchronous search ends: a search reads many windows and lines, and one descriptor serves them
   * all, while no view keeps one open between events or after its process moves on.
   */
  private openForReads(): number {
    if (this.descriptor !== undefined) return this.descriptor;
    const descriptor = openSync(this.path, fs.O_RDONLY | fs.O_NONBLOCK | fs.O_NOCTTY);
    try {
      const stat = fstatSync(descriptor);
      const { dev, ino, size } = this.identity;
      if (stat.dev !== dev || stat.ino !== ino || stat.size < size) throw new TranscriptChangedError(this.path);
    } catch (error) {
      closeSync(descriptor);
      throw error;
    }
    this.descriptor = descriptor;
    queueMicrotask(() => {
      this.descriptor = undefined;
      try {
        closeSync(descriptor);
      } catch {
        // already closed: nothing to release
      }
    });
    return descriptor;
  }
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
  bytes: TranscriptFile,
  pattern: Buffer,
  from: number,
  anchor: { bytes: Buffer; offset: number } | undefined,
): number {
  if (anchor === undefined) return bytes.indexOf(pattern, from);
  for (let hit = bytes.indexOf(anchor.bytes, from + anchor.offset); hit >= 0; ) {
    const at = hit - anchor.offset;
    if (at + pattern.length > bytes.length) return -1;
    if (bytes.equals(pattern, at)) return at;
    hit = bytes.indexOf(anchor.bytes, hit + 1);
  }
  return -1;
}

/** Whether the bytes before the cursor's offset are the ones it was made after. */
function cursorHolds(bytes: TranscriptFile, cursor: TranscriptCursor): boolean {
  return (
    cursor.offset > 0 &&
    cursor.offset <= bytes.length &&
    bytes.equals(NEWLINE_BYTES, cursor.offset - 1) &&
    checkBefore(bytes, cursor.offset) === cursor.check
  );
}

const NEWLINE_BYTES = Buffer.from([NEWLINE]);

/**
 * The line before `offset` (its last `CURSOR_CHECK_BYTES` bytes), base64: a transcript's lines hold unique ids. Only
 * those bytes are read: the line's start matters only when it lies among them.
 */
function checkBefore(bytes: TranscriptFile, offset: number): string {
  const from = Math.max(0, offset - CURSOR_CHECK_BYTES);
  // latin1: one character per byte, so an index in the text is an offset in the bytes
  const tail = bytes.text("latin1", from, offset);
  const newline = offset - from >= 2 ? tail.lastIndexOf("\n", offset - from - 2) : -1;
  return Buffer.from(tail.slice(newline + 1), "latin1").toString("base64");
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
