/**
 * A copy of `value` with every string longer than `maxLength` cut (on a code-point boundary) and marked with how
 * much was left out, so a denial record of a 200 KB Write stays small in the state buffer and the store. Shapes
 * are kept; values that need no cut are returned as they are.
 */
export function truncateStrings(value: unknown, maxLength: number): unknown {
  if (typeof value === "string") {
    if (value.length <= maxLength) return value;
    let end = maxLength;
    const code = value.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end -= 1;
    return `${value.slice(0, end)}…[${value.length - end} more characters]`;
  }
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((item) => {
      const next = truncateStrings(item, maxLength);
      if (next !== item) changed = true;
      return next;
    });
    return changed ? out : value;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const next = truncateStrings(inner, maxLength);
    if (next !== inner) changed = true;
    out[key] = next;
  }
  return changed ? out : value;
}
