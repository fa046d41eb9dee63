/**
 * The text inside Cline's error result: a refused or failed call's result is `{"error": "<text>"}` (as the model reads
 * it); anything else is returned as it is.
 */
export function clineErrorText(text: string): string {
  if (!text.startsWith("{")) return text;
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      const error = (value as Record<string, unknown>)["error"];
      if (typeof error === "string") return error;
    }
  } catch {
    // not JSON: the text as it is
  }
  return text;
}
