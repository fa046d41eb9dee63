import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

/** A file's lines, streamed with readline (constant memory whatever the file size). */
export async function* readLines(file: string): AsyncGenerator<string> {
  const stream = createReadStream(file, { encoding: "utf8", highWaterMark: 1024 * 1024 });
  const lines = createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
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
