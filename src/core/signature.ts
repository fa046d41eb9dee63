import { canonicalJson } from "./canonical-json.js";
import { hash53 } from "./hash.js";
import { normalizeVolatile } from "./normalize-volatile.js";

/**
 * The stable identity of a call: tool name plus a hash of the canonical JSON of its input (keys sorted, volatile
 * values normalised, whitespace in shell commands collapsed). Two retries that differ only by key order, a
 * timestamp, a PID, a port or a temp-dir suffix share a signature. The edge computes it from the *redacted* input,
 * so no signature is ever a plain hash of a secret.
 */
export function callSignature(tool: string, input: unknown): string {
  return `${tool}:${hash53(canonicalJson(normalizeVolatile(input)))}`;
}
