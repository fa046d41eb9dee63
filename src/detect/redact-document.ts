import { type RedactionFindings, type RedactOptions, redactWithFindings } from "./redact.js";

/**
 * Redacts a whole document for people who want to share it: plain text, one JSON value, or JSONL (an agent
 * transcript). JSON stays valid: values are redacted after parsing and serialised again (keeping the document's
 * indentation); lines of a JSONL file that are not JSON are redacted as text.
 */
export type DocumentFormat = "text" | "json" | "jsonl";

export interface RedactedDocument {
  output: string;
  format: DocumentFormat;
  findings: RedactionFindings;
  total: number;
}

function addFindings(into: RedactionFindings, from: RedactionFindings): void {
  for (const [kind, amount] of Object.entries(from)) into[kind] = (into[kind] ?? 0) + amount;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  const trimmed = text.trim();
  if (!/^[[{"]/.test(trimmed) && !/^(?:-?\d|true$|false$|null$)/.test(trimmed)) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(trimmed) };
  } catch {
    return { ok: false };
  }
}

/** `json` when the whole text is one JSON value, `jsonl` when its first non-empty line is JSON, else `text`. */
export function detectDocumentFormat(text: string): DocumentFormat {
  if (tryParse(text).ok) return "json";
  const firstLine = text.split("\n").find((line) => line.trim().length > 0);
  if (firstLine !== undefined && /^\s*[[{]/.test(firstLine) && tryParse(firstLine).ok) return "jsonl";
  return "text";
}

function indentationOf(text: string): string | undefined {
  const match = /^\s*[[{]\r?\n([ \t]+)/.exec(text);
  if (match?.[1] !== undefined) return match[1];
  return text.trim().includes("\n") ? "  " : undefined;
}

/** Redact a document; throws a SyntaxError when `format` is `json` and the text is not JSON. */
export function redactDocument(
  text: string,
  options: { format?: DocumentFormat | "auto"; redact?: RedactOptions } = {},
): RedactedDocument {
  const format =
    options.format === undefined || options.format === "auto" ? detectDocumentFormat(text) : options.format;
  const findings: RedactionFindings = {};
  const trailingNewline = text.endsWith("\n") ? "\n" : "";
  let output: string;
  if (format === "json") {
    const value: unknown = JSON.parse(text);
    const result = redactWithFindings(value, options.redact);
    addFindings(findings, result.findings);
    output = JSON.stringify(result.redacted, null, indentationOf(text)) + trailingNewline;
  } else if (format === "jsonl") {
    const lines = text.split("\n");
    output = lines
      .map((line) => {
        if (line.trim().length === 0) return line;
        const parsed = tryParse(line);
        const result = redactWithFindings(parsed.ok ? parsed.value : line, options.redact);
        addFindings(findings, result.findings);
        return parsed.ok ? JSON.stringify(result.redacted) : String(result.redacted);
      })
      .join("\n");
  } else {
    const result = redactWithFindings(text, options.redact);
    addFindings(findings, result.findings);
    output = result.redacted;
  }
  const total = Object.values(findings).reduce((sum, amount) => sum + amount, 0);
  return { output, format, findings, total };
}
