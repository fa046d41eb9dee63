/**
 * JSON with object keys sorted at every level, so two inputs that differ only in key order serialise the same.
 * `undefined` members are dropped as JSON.stringify drops them; non-finite numbers become null.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    if (typeof value === "number" && !Number.isFinite(value)) return "null";
    if (value === undefined || typeof value === "function" || typeof value === "symbol") return "null";
    if (typeof value === "bigint") return JSON.stringify(value.toString());
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let index = 0; index < value.length; index++) {
      if (index > 0) out += ",";
      out += canonicalJson(value[index]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = "{";
  let first = true;
  for (const key of keys) {
    const member = record[key];
    if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
    if (!first) out += ",";
    first = false;
    out += `${JSON.stringify(key)}:${canonicalJson(member)}`;
  }
  return `${out}}`;
}
