/**
 * Replaces values that change between otherwise identical retries (timestamps, UUIDs, epoch times, PIDs, ports,
 * random temp-dir suffixes) with stable placeholders, so two retries that differ only by such values share a
 * signature. Whitespace runs in shell commands are collapsed. Every pattern is linear-time.
 */
const replacements: [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>"],
  [/\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/g, "<uuid>"],
  [/\b1\d{9}(?:\d{3})?\b/g, "<epoch>"],
  [/\b(pid[=: ]\s?)\d+/gi, "$1<pid>"],
  [/\b(kill(?: -[A-Za-z0-9]+)? )\d+\b/g, "$1<pid>"],
  [/\b(localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1\]):\d{2,5}\b/g, "$1:<port>"],
  [/(--port[= ]|\bPORT=)\d{2,5}\b/g, "$1<port>"],
  [/(\/(?:private\/|var\/)?tmp\/[^\s/"'`]*?[._-])[A-Za-z0-9]{6,}(?![A-Za-z0-9])/g, "$1<tmp>"],
  [/(\/(?:private\/|var\/)?tmp\/tmp)[a-z0-9_]{6,}(?![A-Za-z0-9])/g, "$1<tmp>"],
];

const shellKeys = new Set(["command", "cmd", "script"]);

/** Every volatile pattern needs a digit, except random temp-dir suffixes, which need `tmp/`. */
const mayBeVolatile = /[0-9]|tmp\//;

export function normalizeVolatileText(text: string): string {
  if (!mayBeVolatile.test(text)) return text;
  let out = text;
  for (const [pattern, replacement] of replacements) out = out.replace(pattern, replacement);
  return out;
}

function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** A copy of `value` with volatile values normalised in every string (keys untouched). */
export function normalizeVolatile(value: unknown, key?: string): unknown {
  if (typeof value === "string") {
    const normalized = normalizeVolatileText(value);
    return key !== undefined && shellKeys.has(key) ? collapseWhitespace(normalized) : normalized;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map((item) => normalizeVolatile(item));
  const out: Record<string, unknown> = {};
  for (const [member, inner] of Object.entries(value as Record<string, unknown>)) {
    out[member] = normalizeVolatile(inner, member);
  }
  return out;
}
