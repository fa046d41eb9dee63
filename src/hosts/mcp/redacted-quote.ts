/** The longest piece of client text the proxy quotes in a line of its own (a method can be megabytes long). */
const MAX_QUOTED_CHARACTERS = 200;

/**
 * Client text (a method, an argument key) quoted in one of the proxy's own lines: redacted first, so no secret it
 * holds is logged, then bounded and JSON-quoted, so it cannot break the line or pass for the proxy's own words.
 */
export function redactedQuote(text: string, redact: (text: string) => string): string {
  const redacted = redact(text);
  return redacted.length <= MAX_QUOTED_CHARACTERS
    ? JSON.stringify(redacted)
    : `${JSON.stringify(redacted.slice(0, MAX_QUOTED_CHARACTERS))}…`;
}
