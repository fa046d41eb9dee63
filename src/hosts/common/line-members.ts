/**
 * Members of a JSONL line read from its text without `JSON.parse`, for readers that answer a line from a few flat
 * members (the `keep` of `ReaderSource.lines`, or a fact built without parsing): the same reasoning as skip-lines.ts
 * (a line that is one JSON object without duplicate keys; the text from just inside an object up to the first `{`,
 * `[`, `\` or `}` holds only that object's own members, without escapes, so `"name":"value"` there is a key of that
 * object and its string value), searched with the native `indexOf` instead of a loop over characters in JavaScript
 * (about 5x faster on the hosts' lines). Each function answers "surely" or undefined/false ("not sure": parse).
 */

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COMMA = 44;
const COLON = 58;
const QUOTE = 34;
const ZERO = 48;
const NINE = 57;
const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/;

/** The index of the first `{`, `[`, `\` or `}` at or after `from` (the line's length when none). */
export function flatEndOf(line: string, from: number): number {
  let end = line.indexOf("{", from);
  if (end === -1) end = line.length;
  let at = line.indexOf("}", from);
  if (at !== -1 && at < end) end = at;
  at = line.indexOf("[", from);
  if (at !== -1 && at < end) end = at;
  at = line.indexOf("\\", from);
  if (at !== -1 && at < end) end = at;
  return end;
}

/**
 * `"key":"`, the text that opens a string member (`"key":` for an object member): made once per key, outside the
 * loop over lines (a string built per call costs more than the search)
 */
export function stringOpener(key: string): string {
  return `${JSON.stringify(key)}:"`;
}

export function objectOpener(key: string): string {
  return `${JSON.stringify(key)}:`;
}

/**
 * The flat members of one object of a line (`[from, end)`): first the line's top-level object (`top`), then the
 * object each `enter` steps into. One cursor per reader, reused for every line (no object per line).
 */
export class FlatMembers {
  line = "";
  from = 0;
  end = 0;
  /**
   * the first `}`, `[` or `\` of the line after its first character (its length when none): the flat members of
   * every object entered end at it at the latest (it lies after the `{` that opens each), so it is searched once
   */
  private stop = 0;

  /** the flat members of the line's top-level object; false when the line is not `{...}` */
  top(line: string): boolean {
    this.line = line;
    if (line.charCodeAt(0) !== OPEN_BRACE || line.charCodeAt(line.length - 1) !== CLOSE_BRACE) return false;
    let stop = line.indexOf("}", 1);
    let at = line.indexOf("[", 1);
    if (at !== -1 && at < stop) stop = at;
    at = line.indexOf("\\", 1);
    if (at !== -1 && at < stop) stop = at;
    this.stop = stop;
    this.from = 1;
    this.end = this.flatEnd(1);
    return true;
  }

  /** `flatEndOf(line, from)` for a `from` at or before `stop` */
  private flatEnd(from: number): number {
    const open = this.line.indexOf("{", from);
    return open !== -1 && open < this.stop ? open : this.stop;
  }

  /**
   * Steps into the object that ends these flat members when it is the value of the member `opener`
   * (`objectOpener(key)`) opens (`,"key":{` or `{"key":{`); false otherwise.
   */
  enter(opener: string): boolean {
    if (!this.endsWithObject(opener)) return false;
    this.from = this.end + 1;
    this.end = this.flatEnd(this.from);
    return true;
  }

  /** whether the object that ends these flat members is the value of the member `opener` (`objectOpener`) opens */
  endsWithObject(opener: string): boolean {
    const { line, end } = this;
    if (line.charCodeAt(end) !== OPEN_BRACE) return false;
    const at = end - opener.length;
    if (at < this.from || !line.startsWith(opener, at)) return false;
    const before = line.charCodeAt(at - 1);
    return before === COMMA || before === OPEN_BRACE;
  }

  /**
   * The index where the string value that `opener` (`stringOpener(key)`) opens begins, or -1 when these flat members
   * do not hold it (its closing quote is the next `"`, before `end` when the value is a whole string there).
   */
  valueStart(opener: string): number {
    const at = this.line.indexOf(opener, this.from);
    if (at === -1) return -1;
    const start = at + opener.length;
    return start <= this.end ? start : -1;
  }

  /** the string value of the member `opener` (`stringOpener(key)`) opens, or undefined when these do not hold it */
  string(opener: string): string | undefined {
    const start = this.valueStart(opener);
    if (start === -1) return undefined;
    const close = this.line.indexOf('"', start);
    return close === -1 || close >= this.end ? undefined : this.line.slice(start, close);
  }

  /** whether these hold `member`, a whole member's text (`"key":"value"`, the value without quote or backslash) */
  holds(member: string): boolean {
    const at = this.line.indexOf(member, this.from);
    return at !== -1 && at + member.length <= this.end;
  }
}

/**
 * `"key":"value"`, a string member's whole text, for `FlatMembers.holds`; undefined for a value that holds a quote or
 * a backslash (its text is never looked for: the line is parsed).
 */
export function stringMemberText(key: string, value: string): string | undefined {
  return value.includes('"') || value.includes("\\") ? undefined : `${stringOpener(key)}${value}"`;
}

/**
 * The members of the object that opens at `open` (its text as a host writes it: no whitespace, no escape), each
 * number as its value and any other value (a string, `true`, a nested object, ...) as undefined, or undefined when
 * the text is not such an object. For a reader that only reads numbers of a small object (a usage object) without
 * `JSON.parse`, which costs more than the whole scan on such objects (it makes every nested object and string).
 * `read` answers the same object every time, its members set again: a key an earlier object had and this one has not
 * reads undefined (as it does on the parsed object), until the next `read`. The keys are kept (at most 64: an object
 * with a key past those is not read) so that neither a string per key nor a new object shape is made per line.
 */
export class NumberMembers {
  private readonly keys: string[] = [];
  private readonly values: Record<string, number | undefined> = {};
  /** where `keyAt` looks first */
  private next = 0;

  read(line: string, open: number): Record<string, number | undefined> | undefined {
    const { values } = this;
    for (const key of this.keys) values[key] = undefined;
    if (line.charCodeAt(open) !== OPEN_BRACE) return undefined;
    const backslash = line.indexOf("\\", open);
    const limit = backslash === -1 ? line.length : backslash;
    let at = open + 1;
    if (line.charCodeAt(at) === CLOSE_BRACE) return values;
    for (;;) {
      if (line.charCodeAt(at) !== QUOTE) return undefined;
      const keyEnd = line.indexOf('"', at + 1);
      if (keyEnd === -1 || keyEnd >= limit || line.charCodeAt(keyEnd + 1) !== COLON) return undefined;
      const key = this.keyAt(line, at + 1, keyEnd);
      // a key past those kept, or one that would set the prototype of the object answered: not sure
      if (key === undefined || key === "__proto__") return undefined;
      const valueAt = keyEnd + 2;
      const first = line.charCodeAt(valueAt);
      let next: number;
      let value: number | undefined;
      if (first === QUOTE) {
        const close = line.indexOf('"', valueAt + 1);
        if (close === -1 || close >= limit) return undefined;
        next = close + 1;
      } else if (first === OPEN_BRACE || first === OPEN_BRACKET) {
        next = nestedEnd(line, valueAt, limit);
        if (next === -1) return undefined;
      } else {
        // a number (or true, false, null): up to the next `,` or `}`
        next = valueAt;
        let integer = first >= ZERO && first <= NINE ? 0 : -1;
        for (; next < limit; next++) {
          const code = line.charCodeAt(next);
          if (code === COMMA || code === CLOSE_BRACE) break;
          if (integer !== -1 && code >= ZERO && code <= NINE) integer = integer * 10 + (code - ZERO);
          else integer = -1;
        }
        if (next >= limit) return undefined;
        const digits = next - valueAt;
        // a plain integer of at most 15 digits is exact as summed above; anything else is read as JSON.parse reads it
        if (integer !== -1 && digits <= 15 && (digits === 1 || first !== ZERO)) value = integer;
        else {
          const text = line.slice(valueAt, next);
          if (JSON_NUMBER.test(text)) value = Number(text);
          else if (text !== "true" && text !== "false" && text !== "null") return undefined;
        }
      }
      values[key] = value;
      const after = line.charCodeAt(next);
      if (after === CLOSE_BRACE) return values;
      if (after !== COMMA) return undefined;
      at = next + 1;
    }
  }

  /**
   * the kept key the text `[start, end)` spells (kept now when it is new and there is room), or undefined; the keys
   * of a host's objects come in one order, so the key after the last one found is tried first
   */
  private keyAt(line: string, start: number, end: number): string | undefined {
    const { keys } = this;
    const length = end - start;
    const first = line.charCodeAt(start);
    for (let tried = 0, index = this.next; tried < keys.length; tried++, index++) {
      if (index >= keys.length) index = 0;
      const known = keys[index] as string;
      if (known.length === length && known.charCodeAt(0) === first && line.startsWith(known, start)) {
        this.next = index + 1;
        return known;
      }
    }
    if (keys.length >= KNOWN_KEYS) return undefined;
    const key = line.slice(start, end);
    keys.push(key);
    this.next = keys.length;
    return key;
  }
}

const KNOWN_KEYS = 64;

/** The index just past the object or array that opens at `open` (strings stepped over whole), or -1 before `limit`. */
function nestedEnd(line: string, open: number, limit: number): number {
  let depth = 0;
  for (let index = open; index < limit; index++) {
    const code = line.charCodeAt(index);
    if (code === QUOTE) {
      index = line.indexOf('"', index + 1);
      if (index === -1 || index >= limit) return -1;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) depth += 1;
    else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}
