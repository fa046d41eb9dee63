/**
 * Tests on a JSONL line's raw bytes that let a reader leave a line it would ignore unparsed (`ReaderSource.lines`'s
 * `keep`). Each test answers "surely" or "not sure" (then the line is parsed as before), for a line that is one JSON
 * object without duplicate keys (what every host writes; a duplicate key or a corrupt line that begins with `{` and
 * ends with `}` may be left unparsed where it would have been counted as skipped). ASCII needles match the same in
 * bytes as in text.
 *
 * Why a needle cannot be faked: inside a JSON string a `"` is always escaped (`\"`), so a needle that starts and ends
 * with `"` (`"user"`, `"type":"system"`) occurs in the raw line only as the JSON it spells, never inside a string's
 * text. A name could still be spelled with a `\u` escape (`"\u0075ser"`): a line holding `\u` anywhere is never plain.
 */

const UNICODE_ESCAPE = Buffer.from("\\u");
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;

/** A line that starts with `{`, ends with `}` and holds no `\u` escape: every name in it is spelled out. */
export function plainObjectLine(bytes: Buffer): boolean {
  return bytes[0] === OPEN_BRACE && bytes[bytes.length - 1] === CLOSE_BRACE && !bytes.includes(UNICODE_ESCAPE);
}

/** Whether any of `needles` occurs in the line (a plain line without them surely holds none of those strings). */
export function holdsAny(bytes: Buffer, needles: readonly Buffer[]): boolean {
  for (const needle of needles) if (bytes.includes(needle)) return true;
  return false;
}

/**
 * Whether `needle` (a key and the start of its value, `"type":"system"`) occurs as a key of the line's top-level
 * object: its first occurrence has no `{`, `[` or `\` before it, so every token before it is a top-level key or a
 * scalar value, and it is one too (a `"` there opens a key: a string value cannot start right after a scalar).
 */
export function topLevelKey(bytes: Buffer, needle: Buffer): boolean {
  const at = bytes.indexOf(needle, 1);
  if (at === -1) return false;
  for (let index = 1; index < at; index++) {
    const byte = bytes[index];
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET || byte === BACKSLASH) return false;
  }
  return true;
}

/** `"<key>":<value as JSON>` as bytes, a needle for `topLevelKey` (`"sessionId":"ses_1"`). */
export function keyValueNeedle(key: string, value: string): Buffer {
  return Buffer.from(`${JSON.stringify(key)}:${JSON.stringify(value)}`);
}

/** Needles for quoted names: `"user"`, `"assistant"`, ... */
export function quoted(...names: string[]): Buffer[] {
  return names.map((name) => Buffer.from(JSON.stringify(name)));
}
