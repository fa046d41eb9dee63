import { redactTextInto } from "./redaction-engine.js";
import type { RedactionFindings, RedactOptions } from "./redaction-types.js";
import { redactWalk, walkState } from "./redaction-walk.js";

/**
 * Secret redaction: the one funnel every record, log line, hook payload and summary goes through. Secrets become
 * `[REDACTED:<kind>]` (or `[REDACTED:<kind>#<keyed hash>]` when a keyed hash port is given, so repeated denials of
 * the same secret-bearing call still group). Pure, linear-time, idempotent: `redactText(redactText(x))` equals
 * `redactText(x)`. See docs/detection.md for the formats.
 */
export type { ExtraSecretPattern, KeyedHash, RedactionFindings, RedactOptions } from "./redaction-types.js";

/** Redact every secret in a text. */
export function redactText(text: string, options?: RedactOptions): string {
  return redactTextInto({ text, options });
}

/**
 * Redact every string inside a value (object keys included). Values under a key that names a secret (`password`,
 * `GITHUB_TOKEN`, `Authorization`) are redacted whole. Keeps the JSON shape: objects stay objects, arrays stay arrays,
 * numbers and booleans are kept. Past the depth, size or node bound, values are replaced by a marker, never let through.
 */
export function redactValue(value: unknown, options?: RedactOptions): unknown {
  return redactWalk(value, walkState(options, undefined));
}

/** Redact a text or a value and report how many secrets of each kind were replaced. */
export function redactWithFindings<T>(
  value: T,
  options?: RedactOptions,
): { redacted: T extends string ? string : unknown; findings: RedactionFindings; total: number } {
  const findings: RedactionFindings = {};
  const redacted =
    typeof value === "string"
      ? redactTextInto({ text: value, options, findings })
      : redactWalk(value, walkState(options, findings));
  const total = Object.values(findings).reduce((sum, amount) => sum + amount, 0);
  return { redacted: redacted as T extends string ? string : unknown, findings, total };
}

/** A redactor bound to one set of options (what the guard passes to the core as ports). */
export function createRedactor(options?: RedactOptions): {
  redactText: (text: string) => string;
  redactValue: (value: unknown) => unknown;
} {
  return {
    redactText: (text) => redactTextInto({ text, options }),
    redactValue: (value) => redactWalk(value, walkState(options, undefined)),
  };
}
