import type { Effect } from "../../core/effects.js";
import {
  type HookContext,
  recordTranscriptDenials,
  TranscriptChangedError,
  transcriptLinesOf,
} from "../common/hook-host.js";
import { type RolloutDenial, rolloutDenialsIn } from "./rollout-outcomes.js";

/**
 * The refusals of a Codex rollout a hook event has not seen yet, and `recorded()` to call once they are recorded.
 * With the session's transcript cursors, only the lines appended since the last event that recorded everything are
 * searched: a long session's every PreToolUse would otherwise parse its whole rollout, and hand the guard refusals
 * recorded long ago (past the record buffer, only the denial store can confirm those, so each event opened it).
 */
export function rolloutSinceLastEvent(
  context: HookContext,
  path: string | null | undefined,
): { denials: RolloutDenial[]; recorded: () => void } {
  const none = { denials: [], recorded: () => undefined };
  if (path === undefined || path === null || path === "") return none;
  const cursors = context.openTranscript === undefined ? undefined : context.transcriptCursors;
  const transcript =
    context.openTranscript !== undefined ? context.openTranscript(path, cursors?.read(path)) : linesOf(context, path);
  if (transcript === undefined) return none;
  const { next } = transcript;
  let denials: RolloutDenial[];
  try {
    denials = rolloutDenialsIn(transcript);
  } catch (error) {
    // the rollout was replaced or cut while it was read: as if unreadable (nothing found, the cursor stays)
    if (error instanceof TranscriptChangedError) return none;
    throw error;
  }
  return {
    denials,
    // every refusal up to here is recorded (a failure throws before this is called): later events read what follows
    recorded: () => {
      if (cursors !== undefined && next !== undefined) cursors.write(path, next);
    },
  };
}

function linesOf(context: HookContext, path: string) {
  const text = context.readTranscript(path);
  return text === undefined ? undefined : transcriptLinesOf(text);
}

/**
 * Records the refusals in a Codex rollout that no hook recorded (Codex's own rules and built-in refusals that
 * toolgate did not pre-empt, sandbox and network refusals), each once, keyed by call id. PostToolUse does not fire
 * for a call Codex refused, so the rollout at `transcript_path` is the only place these show.
 */
export async function reconcileRollout(options: {
  context: HookContext;
  path: string | null | undefined;
  agentId?: string;
}): Promise<Effect[]> {
  const rollout = rolloutSinceLastEvent(options.context, options.path);
  const effects = await recordTranscriptDenials(options.context.session, {
    denials: rollout.denials,
    agentId: options.agentId,
  });
  rollout.recorded();
  return effects;
}
