import { createReadStream } from "node:fs";

const NEWLINE = 10;
const CARRIAGE_RETURN = 13;

/**
 * A file's lines, streamed in 1 MB chunks (constant memory whatever the file size; a line is only as large as
 * itself). Splits on `\n` in the raw bytes and decodes each line once, which is faster than readline's string
 * decoder + regex split; a trailing `\r` is dropped. A non-empty line `keep` rejects (given its text: a reader's
 * cheap test, skip-lines.ts, instead of its parse) or `keepBytes` rejects (given its raw bytes: not even decoded) is
 * not yielded. `onLine` (the line's length) is called before each line is
 * yielded, so a caller can count progress without wrapping this in another async generator.
 */
export async function* readLines(
  file: string,
  options: {
    onLine?: (length: number) => void;
    keep?: (line: string) => boolean;
    keepBytes?: (bytes: Buffer) => boolean;
  } = {},
): AsyncGenerator<string> {
  const { onLine, keep, keepBytes } = options;
  const stream = createReadStream(file, { highWaterMark: 1024 * 1024 });
  let carry: Buffer | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      // a line cut by the chunk boundary is joined alone (not the whole chunk copied behind it)
      let segments: Buffer[] = [chunk];
      if (carry !== undefined) {
        const first = chunk.indexOf(NEWLINE);
        if (first === -1) {
          carry = Buffer.concat([carry, chunk]);
          continue;
        }
        segments = [Buffer.concat([carry, chunk.subarray(0, first + 1)]), chunk.subarray(first + 1)];
        carry = undefined;
      }
      for (const buffer of segments) {
        let start = 0;
        let newline = buffer.indexOf(NEWLINE, start);
        while (newline !== -1) {
          const end = newline > start && buffer[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
          if (keepBytes !== undefined && end > start && !keepBytes(buffer.subarray(start, end))) {
            onLine?.(end - start);
            start = newline + 1;
            newline = buffer.indexOf(NEWLINE, start);
            continue;
          }
          const line = buffer.toString("utf8", start, end);
          onLine?.(line.length);
          if (keep === undefined || line.length === 0 || keep(line)) yield line;
          start = newline + 1;
          newline = buffer.indexOf(NEWLINE, start);
        }
        carry = start < buffer.length ? buffer.subarray(start) : undefined;
      }
    }
    if (carry !== undefined && carry.length > 0 && keepBytes !== undefined && !keepBytes(carry)) onLine?.(carry.length);
    else if (carry !== undefined && carry.length > 0) {
      const line = carry.toString("utf8");
      onLine?.(line.length);
      if (keep === undefined || keep(line)) yield line;
    }
  } finally {
    stream.destroy();
  }
}

/** The first `count` non-empty lines of a file, each cut at `maxLength` characters (for format sniffing). */
export async function readHead(file: string, options: { count: number; maxLength: number }): Promise<string[]> {
  const head: string[] = [];
  for await (const line of readLines(file)) {
    if (line.trim() === "") continue;
    head.push(line.slice(0, options.maxLength));
    if (head.length >= options.count) break;
  }
  return head;
}

/** JSON.parse that returns undefined for anything but a JSON object. */
export function parseObject(line: string): Record<string, unknown> | undefined {
  if (line.length === 0 || line.charCodeAt(0) !== 123 /* { */) return undefined;
  try {
    const value: unknown = JSON.parse(line);
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
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
    const parsed = Date.parse(value);
    if (!Number.isNaN(parsed)) return parsed;
  }
  return fallback;
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
