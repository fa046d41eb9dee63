/**
 * Unwraps the envelopes hosts put around a denial text so the tables can match the message itself: a
 * `<tool_use_error>...</tool_use_error>` wrapper and an `Error: ` prefix, a JSON `{"error": ...}` response, and Rust
 * debug output (`exec_command failed: CreateProcess { message: "Rejected(\"...\")" }`). Each host's denial-texts
 * file says which of these its texts arrive in.
 */
const MAX_TEXT = 64 * 1024;

function unescapeRust(text: string): string {
  let current = text;
  // one level of escaping per debug-format nesting; at most two levels occur
  for (let level = 0; level < 3 && /\\["\\]/.test(current); level += 1) {
    current = current.replace(/\\(["\\])/g, "$1");
  }
  return current;
}

export function normalizeDenialText(raw: string): string {
  let text = raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
  text = text.trim();
  const wrapped = /^<tool_use_error>([\s\S]*)<\/tool_use_error>$/.exec(text);
  if (wrapped?.[1] !== undefined) text = wrapped[1].trim();
  if (text.startsWith("{") && text.endsWith("}")) {
    try {
      const parsed: unknown = JSON.parse(text);
      const error = (parsed as { error?: unknown } | null)?.error;
      if (typeof error === "string") text = error.trim();
      else if (typeof (error as { message?: unknown } | undefined)?.message === "string") {
        text = String((error as { message: string }).message).trim();
      }
    } catch {
      // not JSON: match the text as it is
    }
  }
  const rejected = /Rejected\(\\*"([\s\S]*)\\*"\)/.exec(text);
  if (rejected?.[1] !== undefined && /failed: |^Rejected\(/.test(text)) {
    text = unescapeRust(rejected[1].replace(/\\+$/, "")).trim();
  }
  if (text.startsWith("Error: ")) text = text.slice("Error: ".length).trim();
  return text;
}
