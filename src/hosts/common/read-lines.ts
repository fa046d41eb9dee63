import { closeSync, openSync, readSync } from "node:fs";
import { jsonObjectOf } from "./json-line.js";

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const CHUNK_BYTES = 1024 * 1024;

/**
 * A file's lines, read synchronously in 1 MB chunks (constant memory whatever the file size; a line is only as large
 * as itself). Splits on `\n` in the raw bytes and decodes each line once, which is faster than readline's string
 * decoder + regex split; a trailing `\r` is dropped. A non-empty line `keep` rejects (given its text: a reader's
 * cheap test, skip-lines.ts, instead of its parse) or `keepBytes` rejects (given its raw bytes, valid only during the
 * call: not even decoded) is not yielded. `onLine` (the line's length) is called before each line is yielded, so a
 * caller can count progress. `chunkBytes` sets the read size (a small one for a file's first lines).
 *
 * Synchronous on purpose: a reader is a pure translation of lines into facts, and an async generator per line and
 * per fact cost more than the reading itself (a promise and a microtask each; BENCHMARKS.md). The file is closed
 * when the lines end or the caller stops early (`break` runs the generator's `finally`).
 */
export function* readLines(
  file: string,
  options: {
    onLine?: (length: number) => void;
    keep?: (line: string) => boolean;
    keepBytes?: (bytes: Buffer) => boolean;
    chunkBytes?: number;
  } = {},
): Generator<string> {
  const fd = openSync(file, "r");
  const chunk = Buffer.allocUnsafe(options.chunkBytes ?? CHUNK_BYTES);
  // the bytes of a line cut by the chunk's end, in copies (the chunk is read into again): joined once, when the line
  // ends, so a line of many chunks (a screenshot's base64) is copied twice, not once per chunk it spans
  const carry: Buffer[] = [];
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      // a line cut by the chunk boundary is joined alone (not the whole chunk copied behind it)
      const buffer = chunk.subarray(0, read);
      let start = 0;
      if (carry.length > 0) {
        const first = buffer.indexOf(NEWLINE);
        if (first === -1) {
          carry.push(Buffer.from(buffer));
          continue;
        }
        carry.push(buffer.subarray(0, first + 1));
        const joined = Buffer.concat(carry);
        carry.length = 0;
        const line = lineOf(joined, 0, joined.length - 1, options);
        if (line !== undefined) yield line;
        start = first + 1;
      }
      let newline = buffer.indexOf(NEWLINE, start);
      while (newline !== -1) {
        const line = lineOf(buffer, start, newline, options);
        if (line !== undefined) yield line;
        start = newline + 1;
        newline = buffer.indexOf(NEWLINE, start);
      }
      if (start < buffer.length) carry.push(Buffer.from(buffer.subarray(start)));
    }
    if (carry.length > 0) {
      const last = Buffer.concat(carry);
      const line = lineOf(last, 0, last.length, options, false);
      if (line !== undefined) yield line;
    }
  } finally {
    closeSync(fd);
  }
}

/**
 * The line of `buffer` from `start` to the newline at `newline` (or its end, `atNewline` false), as `readLines`
 * yields it; undefined when `keep` or `keepBytes` rejects it (`onLine` is called either way).
 */
function lineOf(
  buffer: Buffer,
  start: number,
  newline: number,
  options: {
    onLine?: (length: number) => void;
    keep?: (line: string) => boolean;
    keepBytes?: (bytes: Buffer) => boolean;
  },
  atNewline = true,
): string | undefined {
  const end = atNewline && newline > start && buffer[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
  if (options.keepBytes !== undefined && end > start && !options.keepBytes(buffer.subarray(start, end))) {
    options.onLine?.(end - start);
    return undefined;
  }
  const line = buffer.toString("utf8", start, end);
  options.onLine?.(line.length);
  return options.keep === undefined || line.length === 0 || options.keep(line) ? line : undefined;
}

/** The bytes `readHead` reads at a time: a file's first lines are mostly short (a large first chunk read for nothing). */
const HEAD_CHUNK_BYTES = 64 * 1024;

/** The first `count` non-empty lines of a file, each cut at `maxLength` characters (for format sniffing). */
export function readHead(file: string, options: { count: number; maxLength: number }): string[] {
  const head: string[] = [];
  for (const line of readLines(file, { chunkBytes: HEAD_CHUNK_BYTES })) {
    if (line.trim() === "") continue;
    head.push(line.slice(0, options.maxLength));
    if (head.length >= options.count) break;
  }
  return head;
}

/**
 * The head lines being sniffed (`sniffingHead`) and their parses: every format's `sniff` parses the same few lines,
 * so each is parsed once per file instead of once per format (19 formats sniff lines). Sniffs only read what they get.
 */
let headRecords: Map<string, Record<string, unknown> | undefined> | undefined;

/** Runs `sniff` (every format's sniff over one file's head) with each line's `parseObject` parsed once. */
export function sniffingHead<T>(sniff: () => T): T {
  const outer = headRecords;
  headRecords = new Map();
  try {
    return sniff();
  } finally {
    headRecords = outer;
  }
}

/** JSON.parse that returns undefined for anything but a JSON object. */
export function parseObject(line: string): Record<string, unknown> | undefined {
  if (headRecords === undefined) return jsonObjectOf(line);
  if (headRecords.has(line)) return headRecords.get(line);
  const record = jsonObjectOf(line);
  headRecords.set(line, record);
  return record;
}

/**
 * A transcript line as a JSON object with a string `type`, or undefined (counted as skipped on `source`) when it is
 * not one: the first step of every JSONL reader.
 */
export function typedRecord(
  line: string,
  source: { skip(): void },
): { record: Record<string, unknown>; type: string } | undefined {
  const record = parseObject(line);
  const type = record === undefined ? undefined : asString(record["type"]);
  if (record === undefined || type === undefined) {
    source.skip();
    return undefined;
  }
  return { record, type };
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** epoch ms of an ISO string or a number (seconds or ms); `fallback` otherwise */
export function timeOf(value: unknown, fallback: number): number {
  if (typeof value === "number" && Number.isFinite(value)) return value < 1e11 ? value * 1000 : value;
  if (typeof value === "string") {
    const parsed = parseIsoTime(value);
    if (!Number.isNaN(parsed)) return parsed;
  }
  return fallback;
}

/** the last minute parsed (`YYYY-MM-DDTHH:MM:`) and its epoch ms: a transcript's lines mostly share a minute */
let cachedMinute = "";
let cachedMinuteMs = Number.NaN;

/**
 * `Date.parse(value)`, the same number for every string, faster on the one shape every host writes
 * (`2026-11-23T19:22:54.908Z`, 24 characters): the minute is parsed once by `Date.parse` itself and the seconds and
 * milliseconds added. Any other shape (another length, no `Z`, a non-digit, an hour past 23, a second past 59) is
 * `Date.parse`'s.
 */
export function parseIsoTime(value: string): number {
  if (
    value.length !== 24 ||
    value.charCodeAt(23) !== 90 /* Z */ ||
    value.charCodeAt(4) !== 45 /* - */ ||
    value.charCodeAt(7) !== 45 ||
    value.charCodeAt(10) !== 84 /* T */ ||
    value.charCodeAt(13) !== 58 /* : */ ||
    value.charCodeAt(16) !== 58 ||
    value.charCodeAt(19) !== 46 /* . */ ||
    value.charCodeAt(11) > 50 /* hour 3x and up */
  ) {
    return Date.parse(value);
  }
  const s1 = value.charCodeAt(17) - 48;
  const s2 = value.charCodeAt(18) - 48;
  const m1 = value.charCodeAt(20) - 48;
  const m2 = value.charCodeAt(21) - 48;
  const m3 = value.charCodeAt(22) - 48;
  if (s1 < 0 || s1 > 5 || s2 < 0 || s2 > 9 || m1 < 0 || m1 > 9 || m2 < 0 || m2 > 9 || m3 < 0 || m3 > 9) {
    return Date.parse(value);
  }
  if (!value.startsWith(cachedMinute) || cachedMinute === "") {
    const minute = value.slice(0, 17);
    const minuteMs = Date.parse(`${minute}00.000Z`);
    // hour 24 is Date.parse's end of day only at 24:00:00.000: leave every hour 24 to it
    if (Number.isNaN(minuteMs) || (value.charCodeAt(11) === 50 && value.charCodeAt(12) > 51)) return Date.parse(value);
    cachedMinute = minute;
    cachedMinuteMs = minuteMs;
  }
  return cachedMinuteMs + (s1 * 10 + s2) * 1000 + m1 * 100 + m2 * 10 + m3;
}

/** Text of a tool result's content: a string, or the text blocks of an array. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined || content === null ? "" : JSON.stringify(content);
  let text = "";
  for (const block of content) {
    const record = asRecord(block);
    const part = record === undefined ? undefined : asString(record["text"]);
    if (part !== undefined) text += text === "" ? part : `\n${part}`;
  }
  return text;
}
