import { canonicalJson } from "./canonical-json.js";
import { hash53 } from "./hash.js";
import { normalizeVolatile } from "./normalize-volatile.js";
import { toolFamily } from "./tool-families.js";

/**
 * The stable identity of a call: tool name plus a hash of the canonical JSON of its input (keys sorted, volatile
 * values normalised, whitespace in shell commands collapsed). Two retries that differ only by key order, a
 * timestamp, a PID, a port or a temp-dir suffix, or only by what the model wrote about a shell command (its
 * `description`), share a signature. The edge computes it from the *redacted* input,
 * so no signature is ever a plain hash of a secret.
 */
export function callSignature(tool: string, input: unknown): string {
  return `${tool}:${hash53(canonicalJson(normalizeVolatile(withoutCommentary(tool, input))))}`;
}

/**
 * Fields of a shell call the model writes about the command, not into it (the `description` most hosts' shell tools
 * take, an `exec_command`'s `justification`): the same command with new words about it is the same call.
 */
const COMMENTARY_FIELDS: readonly string[] = ["description", "justification"];

function withoutCommentary(tool: string, input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const record = input as Record<string, unknown>;
  if (!COMMENTARY_FIELDS.some((field) => Object.hasOwn(record, field)) || toolFamily(tool) !== "shell") return input;
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!COMMENTARY_FIELDS.includes(key)) kept[key] = value;
  return kept;
}
