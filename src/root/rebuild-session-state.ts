import type { CompiledConfig } from "../core/config.js";
import type { ToolgateEvent } from "../core/events.js";
import { initialState } from "../core/initial-state.js";
import type { DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import { step } from "../core/step.js";

/**
 * A session's reducer state rebuilt from its denial records, for a session whose state file was unreadable and
 * moved aside: each record (oldest first, each identity once) goes back through the core as the `call.denied` it
 * came from, with the turns it was made in, so counts, escalation levels, loop windows and a headless abort come
 * back. What records cannot tell is left in the safe direction: successes between denials are not replayed (the
 * in-a-row streak can only be higher, so an escalation can only come earlier) and grants are not restored (a
 * grant is never rebuilt from anything but a person's answer). Effects of the replay are dropped: its records and
 * events are already stored, and hooks are not told again (the high-water mark is moved to the end).
 */
export function rebuildSessionState(options: {
  sessionId: string;
  interactive: boolean;
  host?: string;
  records: readonly DenialRecord[];
  config: CompiledConfig;
}): SessionState {
  const seen = new Set<string>();
  const records = options.records
    .filter((record) => record.sessionId === options.sessionId)
    .filter((record) => {
      const identity = `${record.seq}\u0000${record.at}\u0000${record.toolUseId}`;
      if (seen.has(identity)) return false;
      seen.add(identity);
      return true;
    })
    .sort((a, b) => a.at - b.at || a.seq - b.seq);
  let state = initialState({
    sessionId: options.sessionId,
    interactive: options.interactive,
    ...(options.host === undefined ? {} : { host: options.host }),
  });
  const apply = (event: ToolgateEvent) => {
    state = step(state, event, options.config).state;
  };
  for (const record of records) {
    const base = {
      at: record.at,
      sessionId: options.sessionId,
      ...(record.agentId ? { agentId: record.agentId } : {}),
    };
    while (state.turn < record.turn) apply({ type: "turn.started", ...base });
    apply({
      type: "call.denied",
      ...base,
      call: {
        toolUseId: record.toolUseId,
        tool: record.tool,
        input: record.input,
        signature: record.signature,
        pattern: record.pattern,
        summary: record.inputSummary,
        redactedInput: record.input,
      },
      source: record.source,
      reason: record.reason,
      ...(record.rule === undefined ? {} : { rule: record.rule }),
      ...(record.decisionReasonType === undefined ? {} : { decisionReasonType: record.decisionReasonType }),
    });
  }
  return { ...state, highWaterMark: state.total };
}
