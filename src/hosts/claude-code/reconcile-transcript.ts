import type { Effect } from "../../core/effects.js";
import { recordTranscriptDenials, type TranscriptLines, transcriptLinesOf } from "../common/hook-host.js";
import type { ClaudeHookContext } from "./handle-hook.js";
import { findTranscriptDenialsIn } from "./transcript-denials.js";

/**
 * Records the denials in a transcript that no hook recorded (path-denied Read/Edit, a person's "No", removed
 * tools, rule denials toolgate did not pre-empt), each once, keyed by tool_use_id.
 */
export async function reconcileTranscript(options: {
  context: ClaudeHookContext;
  path: string | undefined;
  agentId?: string;
}): Promise<Effect[]> {
  const { context, path } = options;
  if (path === undefined) return [];
  const transcript =
    context.openTranscript !== undefined ? context.openTranscript(path) : linesOf(context.readTranscript(path));
  if (transcript === undefined) return [];
  return recordTranscriptDenials(context.session, {
    denials: findTranscriptDenialsIn(transcript),
    agentId: options.agentId,
  });
}

function linesOf(text: string | undefined): TranscriptLines | undefined {
  return text === undefined ? undefined : transcriptLinesOf(text);
}
