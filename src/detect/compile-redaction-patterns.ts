import { ToolgateError } from "../core/errors.js";
import { checkPatternSafety } from "./check-pattern-safety.js";
import type { ExtraSecretPattern } from "./redact.js";

/** An extension pattern as written in config (`redaction.patterns[]`). */
export interface RedactionPatternOption {
  /** the kind shown in the marker: `[REDACTED:<kind>]`; lower-case letters, digits and dashes */
  kind: string;
  /** a JavaScript regular expression source; a `secret` named group, when present, is what gets redacted */
  pattern: string;
  /** any of `i`, `m`, `s`, `u` */
  flags?: string;
}

export const REDACTION_KIND = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** Validate and compile extension patterns; an unsafe or invalid one is a CONFIG_INVALID error naming it. */
export function compileRedactionPatterns(options: readonly RedactionPatternOption[]): ExtraSecretPattern[] {
  return options.map((option, index) => {
    if (!REDACTION_KIND.test(option.kind)) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `redaction.patterns[${index}].kind "${option.kind}" is not a valid kind: use lower-case letters, digits and dashes (at most 40).`,
      });
    }
    const safety = checkPatternSafety(option.pattern, option.flags ?? "");
    if (!safety.safe) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `redaction.patterns[${index}] (${option.kind}) was rejected: ${safety.reason}. Rewrite it with bounded quantifiers and no nested repetition.`,
      });
    }
    return { kind: option.kind, pattern: new RegExp(option.pattern, `${option.flags ?? ""}gd`), prefix: safety.prefix };
  });
}
