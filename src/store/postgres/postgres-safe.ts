// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for
const UNSAFE = /[\u0000\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Postgres refuses NUL in text and `\u0000` or lone surrogates in JSONB; a record carrying one would be refused on
 * every retry. Replaces them with U+FFFD (strings and object keys, at any depth). Values without them are returned
 * as they are, so the common case allocates nothing.
 */
export function postgresSafe<T>(value: T): T {
  return clean(value) as T;
}

function clean(value: unknown): unknown {
  if (typeof value === "string") return UNSAFE.test(value) ? safeString(value) : value;
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const next = clean(value[index]);
      if (next !== value[index]) {
        copy ??= [...value];
        copy[index] = next;
      }
    }
    return copy ?? value;
  }
  if (value !== null && typeof value === "object") {
    let copy: Record<string, unknown> | undefined;
    const entries = Object.entries(value as Record<string, unknown>);
    for (const [key, entry] of entries) {
      const next = clean(entry);
      const safeKey = UNSAFE.test(key) ? safeString(key) : key;
      if (next !== entry || safeKey !== key) {
        copy ??= {};
        break;
      }
    }
    if (!copy) return value;
    for (const [key, entry] of entries) copy[UNSAFE.test(key) ? safeString(key) : key] = clean(entry);
    return copy;
  }
  return value;
}

function safeString(text: string): string {
  return text.replaceAll("\u0000", "\uFFFD").replace(LONE_SURROGATE, "\uFFFD");
}
