import type { Effect } from "../../core/effects.js";
import { type HookContext, recordTranscriptDenials } from "../common/hook-host.js";
import { rolloutDenials } from "./rollout-outcomes.js";

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
  const { context, path } = options;
  if (path === undefined || path === null || path === "") return [];
  const text = context.readTranscript(path);
  if (text === undefined) return [];
  return recordTranscriptDenials(context.session, { denials: rolloutDenials(text), agentId: options.agentId });
}
