import { ToolgateError } from "../../core/errors.js";
import type { DenialStore } from "../../store/ports.js";

/** how many matching ids an ambiguous prefix's error lists */
const SHOWN = 5;

/**
 * The session a `--session` value names: the id itself when the store has it, else the one stored id that starts
 * with it (their help shows an 8-character prefix, and `analyze --session` takes one). A prefix of several
 * sessions is refused with their ids (bad input, exit 2), never summed. A value nothing starts with is returned as
 * given: the command then says it found no denials for that session.
 */
export async function resolveSession(denials: Pick<DenialStore, "sessionIds">, given: string): Promise<string> {
  const matches = await denials.sessionIds({ prefix: given, limit: SHOWN + 1 });
  if (matches.length === 0 || matches.includes(given)) return given;
  if (matches.length === 1) return matches[0]!;
  const shown = matches.slice(0, SHOWN).join(", ");
  throw new ToolgateError({
    code: "INPUT_INVALID",
    message: `--session ${given} matches ${matches.length > SHOWN ? `more than ${SHOWN}` : matches.length} sessions (${shown}${matches.length > SHOWN ? ", ..." : ""}): give more of the id.`,
  });
}
