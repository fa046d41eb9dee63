const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
/** keys longer than this are not `id` or `method`; ids longer than this are not kept */
const MAX_KEY_BYTES = 16;
const MAX_ID_BYTES = 1024;

type Capture = "none" | "key" | "string-id" | "number-id";

/**
 * Reads a JSON object's top-level `id` (a string or a number) and whether it has a top-level `method`, from its
 * bytes as they arrive, keeping only a few bytes whatever the object's size: how the MCP proxy answers a message
 * too large to read (a JSON-RPC error needs the request's id). Structural characters are ASCII, so UTF-8 text is
 * scanned byte by byte safely. As `JSON.parse`, the last `id` wins.
 */
export class TopLevelIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  private expectKey = false;
  private lastKey: string | undefined;
  private afterIdColon = false;
  private capture: Capture = "none";
  private captured: number[] = [];
  private overflow = false;
  private idValue: string | number | undefined;
  private methodSeen = false;

  push(bytes: Uint8Array): void {
    for (const byte of bytes) this.step(byte);
  }

  /** the top-level `id` of a request (an object with a top-level `method`), when one was read */
  id(): string | number | undefined {
    if (this.capture === "number-id") this.finishNumber();
    return this.methodSeen ? this.idValue : undefined;
  }

  private step(byte: number): void {
    if (this.inString) {
      this.stringByte(byte);
      return;
    }
    if (this.capture === "number-id") {
      if (byte === COMMA || WHITESPACE.has(byte) || CLOSE.has(byte)) this.finishNumber();
      else {
        this.keep(byte);
        return;
      }
    }
    if (WHITESPACE.has(byte)) return;
    if (this.depth === 1 && this.afterIdColon) {
      this.afterIdColon = false;
      if (byte === QUOTE) {
        this.startString("string-id");
        return;
      }
      if (byte === 0x2d || (byte >= 0x30 && byte <= 0x39)) {
        this.capture = "number-id";
        this.captured = [byte];
        this.overflow = false;
        return;
      }
      this.idValue = undefined; // null, an object, an array: not an id a response can carry
    }
    if (byte === QUOTE) {
      this.startString(this.depth === 1 && this.expectKey ? "key" : "none");
      return;
    }
    if (OPEN.has(byte)) {
      this.depth += 1;
      this.expectKey = this.depth === 1 && byte === 0x7b;
      return;
    }
    if (CLOSE.has(byte)) {
      this.depth -= 1;
      return;
    }
    if (this.depth !== 1) return;
    if (byte === COMMA) this.expectKey = true;
    else if (byte === COLON) this.afterIdColon = this.lastKey === "id";
  }

  private startString(capture: Capture): void {
    this.inString = true;
    this.escaped = false;
    this.capture = capture;
    this.captured = [];
    this.overflow = false;
  }

  private stringByte(byte: number): void {
    if (this.escaped) {
      this.escaped = false;
      this.keep(byte);
      return;
    }
    if (byte === BACKSLASH) {
      this.escaped = true;
      this.keep(byte);
      return;
    }
    if (byte !== QUOTE) {
      this.keep(byte);
      return;
    }
    this.inString = false;
    const text = this.overflow ? undefined : decodeJsonString(this.captured);
    if (this.capture === "key") {
      this.expectKey = false;
      this.lastKey = text;
      if (text === "method") this.methodSeen = true;
    } else if (this.capture === "string-id") {
      this.idValue = text;
    }
    this.capture = "none";
    this.captured = [];
  }

  private finishNumber(): void {
    const text = String.fromCharCode(...this.captured);
    const value = this.overflow ? Number.NaN : Number(text);
    this.idValue = Number.isFinite(value) ? value : undefined;
    this.capture = "none";
    this.captured = [];
  }

  private keep(byte: number): void {
    if (this.capture === "none" || this.overflow) return;
    const limit = this.capture === "key" ? MAX_KEY_BYTES : MAX_ID_BYTES;
    if (this.captured.length >= limit) {
      this.overflow = true;
      this.captured = [];
      return;
    }
    this.captured.push(byte);
  }
}

function decodeJsonString(bytes: number[]): string | undefined {
  try {
    return JSON.parse(`"${new TextDecoder().decode(new Uint8Array(bytes))}"`) as string;
  } catch {
    return undefined;
  }
}
