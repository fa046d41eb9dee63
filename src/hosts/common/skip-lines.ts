/**
 * Tests on a JSONL line's text that let a reader leave a line it would ignore unparsed (`ReaderSource.lines`'s
 * `keep`). Each test answers "surely" or "not sure" (then the line is parsed as before), for a line that is one JSON
 * object without duplicate keys (what every host writes; a duplicate key, or a corrupt line that begins with `{` and
 * ends with `}`, may be left unparsed where it would have been counted as skipped).
 *
 * Positive tests, on an object's flat members: the text from just inside an object up to the first `{`, `[`,
 * `\` or `}` after it holds no nested value, no escape and no end of the object, so each `"name":` in it is a key of
 * that very object and each `"name":"value"` its value, as `JSON.parse` reads it. A name spelled with an escape
 * (`"\u0074ype"`), whitespace around a colon, a key after a nested value or a name inside a string never matches:
 * the line is parsed. The test is a loop over the head of the line in JavaScript, `JSON.parse` is native and cheap
 * per byte: it pays only where the lines left unparsed are long against their heads (telemetry records, a system
 * prompt); on short step lines and stream-json's short lines it cost more than it saved (instruction counts in
 * BENCHMARKS.md), so those readers parse every line.
 */

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const BACKSLASH = 92;

/** A line that starts with `{` and ends with `}`. */
export function objectLine(line: string): boolean {
  return line.charCodeAt(0) === OPEN_BRACE && line.charCodeAt(line.length - 1) === CLOSE_BRACE;
}

/** The index of the first `{`, `[`, `\` or `}` at or after `from` (the line's length when none). */
export function flatEnd(line: string, from: number): number {
  for (let index = from; index < line.length; index++) {
    const code = line.charCodeAt(index);
    if (code === OPEN_BRACE || code === OPEN_BRACKET || code === BACKSLASH || code === CLOSE_BRACE) return index;
  }
  return line.length;
}

/**
 * The flat members of a line's top-level object (`from` 1) or of the object that opens at `from - 1`: the text from
 * `from` up to `flatEnd`. A `"key":"value"` in it is surely that object's.
 */
export function flatMembers(line: string, from = 1): string {
  return line.slice(from, flatEnd(line, from));
}

/**
 * The flat members of the object that is the value of the top-level key `key`, when that object is the first
 * nested value of the line (`{"type":"x","part":{...`): undefined otherwise.
 */
export function firstNestedMembers(line: string, key: string): string | undefined {
  const end = flatEnd(line, 1);
  if (line.charCodeAt(end) !== OPEN_BRACE) return undefined;
  const opener = `"${key}":`;
  if (!line.startsWith(opener, end - opener.length)) return undefined;
  // the opener must be a key: the character before it ends the previous member or opens the object
  const before = line.charCodeAt(end - opener.length - 1);
  if (before !== 44 /* , */ && before !== OPEN_BRACE) return undefined;
  return flatMembers(line, end + 1);
}

/** `"<key>":<value as JSON>`: what a flat member with this string value reads as. */
export function member(key: string, value: string): string {
  return `${JSON.stringify(key)}:${JSON.stringify(value)}`;
}

/** The string value of `key` among the flat members, or undefined when they do not hold it as a string. */
export function memberValue(members: string, key: string): string | undefined {
  const opener = `"${key}":"`;
  const at = members.indexOf(opener);
  if (at === -1) return undefined;
  const start = at + opener.length;
  const close = members.indexOf('"', start);
  return close === -1 ? undefined : members.slice(start, close);
}

/**
 * Which of `values` the string value of a top-level member is, read from a line's raw bytes: when the line's flat
 * head (the bytes from just after the opening `{` up to the first `{`, `[`, `\` or `}`, as `flatEnd`) holds
 * `opener` (`"type":"`) and the value's closing quote, the index of the value among `values`, or -1 when it is none
 * of them. Undefined when the head does not hold it (not sure: the caller tests the line as before). Bounded by the
 * head, so a long line costs no more than its head. ASCII names match the same in bytes as in the decoded text.
 */
export function headValueIndex(
  bytes: Uint8Array,
  options: { opener: Uint8Array; values: readonly Uint8Array[] },
): number | undefined {
  const { opener, values } = options;
  const first = opener[0];
  for (let index = 1; index < bytes.length; index++) {
    const code = bytes[index];
    if (code === OPEN_BRACE || code === OPEN_BRACKET || code === BACKSLASH || code === CLOSE_BRACE) return undefined;
    if (code !== first || !startsAt(bytes, index, opener)) continue;
    const start = index + opener.length;
    for (let close = start; close < bytes.length; close++) {
      const inner = bytes[close];
      if (inner === OPEN_BRACE || inner === OPEN_BRACKET || inner === BACKSLASH || inner === CLOSE_BRACE)
        return undefined;
      if (inner !== QUOTE) continue;
      return values.findIndex((value) => close - start === value.length && startsAt(bytes, start, value));
    }
    return undefined;
  }
  return undefined;
}

const QUOTE = 34;

function startsAt(bytes: Uint8Array, at: number, needle: Uint8Array): boolean {
  if (at + needle.length > bytes.length) return false;
  for (let offset = 0; offset < needle.length; offset++) if (bytes[at + offset] !== needle[offset]) return false;
  return true;
}
