import type { Effect } from "../../core/effects.js";
import {
  recordTranscriptDenials,
  TranscriptChangedError,
  type TranscriptLines,
  transcriptLinesOf,
} from "../common/hook-host.js";
import type { CallLine } from "./claude-call-tokens.js";
import type { ClaudeHookContext } from "./handle-hook.js";
import { findTranscriptDenialsIn } from "./transcript-denials.js";

/**
 * Records the denials in a transcript that no hook recorded (path-denied Read/Edit, a person's "No", removed
 * tools, rule denials toolgate did not pre-empt), each once, keyed by tool_use_id. With the session's transcript
 * cursors, only the lines appended since the last reconcile that recorded everything are searched for results.
 */
export async function reconcileTranscript(options: {
  context: ClaudeHookContext;
  path: string | undefined;
  agentId?: string;
  /** filled with the line each denial's call came from, by call id (for the same event's wasted tokens) */
  callLines?: Map<string, CallLine>;
}): Promise<Effect[]> {
  const { context, path } = options;
  if (path === undefined) return [];
  const cursors = context.openTranscript === undefined ? undefined : context.transcriptCursors;
  const transcript =
    context.openTranscript !== undefined
      ? context.openTranscript(path, cursors?.read(path))
      : linesOf(context.readTranscript(path));
  if (transcript === undefined) return [];
  let denials: ReturnType<typeof findTranscriptDenialsIn>;
  try {
    denials = findTranscriptDenialsIn(transcript);
  } catch (error) {
    // the transcript was replaced or cut while it was read: as if unreadable (nothing recorded, the cursor stays)
    if (error instanceof TranscriptChangedError) return [];
    throw error;
  }
  if (options.callLines !== undefined)
    for (const denial of denials) if (denial.callLine) options.callLines.set(denial.toolUseId, denial.callLine);
  const effects = await recordTranscriptDenials(context.session, { denials, agentId: options.agentId });
  // every denial up to here is recorded (a failure above throws first): the next Stop reads only what follows
  if (cursors !== undefined && transcript.next !== undefined) cursors.write(path, transcript.next);
  return effects;
}

function linesOf(text: string | undefined): TranscriptLines | undefined {
  return text === undefined ? undefined : transcriptLinesOf(text);
}
