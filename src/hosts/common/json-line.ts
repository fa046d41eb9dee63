/**
 * One JSONL line's object; undefined for a line that is not a JSON object (a line cut by a concurrent write: the next
 * read takes it whole). What every transcript reader parses a line with, live hooks and `analyze` alike.
 */
export function jsonObjectOf(line: string): Record<string, unknown> | undefined {
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
