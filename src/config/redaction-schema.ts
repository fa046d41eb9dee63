import * as z from "zod";
import { checkPatternSafety } from "../detect/check-pattern-safety.js";
import { REDACTION_KIND } from "../detect/compile-redaction-patterns.js";

/**
 * The `redaction` section of toolgate.config.json. Built-in detectors always run; this section adds patterns, turns on
 * the keyed stable suffix and tunes the bounds. Unsafe patterns (nested or unbounded quantifiers, backreferences)
 * are rejected here, with the reason, so nothing slow ever reaches the hot path.
 */
const patternSchema = z
  .object({
    kind: z.string().regex(REDACTION_KIND, "use lower-case letters, digits and dashes (at most 40)"),
    pattern: z.string().min(1).max(1000),
    flags: z
      .string()
      .regex(/^[imsu]{0,4}$/, "use any of i, m, s, u")
      .optional(),
  })
  .strict()
  .superRefine((value, context) => {
    const safety = checkPatternSafety(value.pattern, value.flags ?? "");
    if (!safety.safe) {
      context.addIssue({ code: "custom", path: ["pattern"], message: `unsafe redaction pattern: ${safety.reason}` });
    }
  });

export const redactionSchema = z
  .object({
    /** extra detectors, run after the built-in ones */
    patterns: z.array(patternSchema).max(100).optional(),
    /**
     * Name of the environment variable that holds the key (at least 16 characters) for the keyed stable suffix
     * `[REDACTED:<kind>#<hmac>]`, so repeated denials of one secret-bearing call still group. Off when unset.
     */
    hashKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, "an environment variable name")
      .optional(),
    /** how deep tool inputs are walked (32) */
    maxDepth: z.number().int().min(1).max(1000).optional(),
    /** characters scanned per value (4194304); the rest is replaced, never let through */
    maxTotalChars: z.number().int().min(1024).max(1_073_741_824).optional(),
    /** values visited per value (100000) */
    maxNodes: z.number().int().min(100).max(100_000_000).optional(),
  })
  .strict();

export type RedactionOptions = z.infer<typeof redactionSchema>;
