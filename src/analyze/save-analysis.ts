import type { DenialRecord } from "../core/records.js";
import type { KeyedAuditEvent, Store } from "../store/ports.js";
import type { AnalyzedSession } from "./analyze-transcripts.js";

/**
 * `--save`: appends the denial records the replay produced for what really happened (the host's denials, never
 * the refusals toolgate would have added) through the store's idempotent `append`. A record's identity is the
 * store's (session id, seq, time, tool_use_id): all four come from the transcript and the deterministic replay, so
 * analysing the same file again adds nothing. Within one run, a denial read from two formats of the same session
 * (the session file and the headless log) is offered once. Returns the number of records offered to the store.
 */
export async function saveAnalysis(options: {
  store: Store<unknown>;
  sessions: readonly AnalyzedSession[];
}): Promise<number> {
  let offered = 0;
  // the same run read from two formats (a session file and its stream-json log) is stored once
  const seen = new Set<string>();
  for (const session of options.sessions) {
    await options.store.denials.appendEvents([...figureEvents(session, seen), ...infoEvents(session)]);
    if (session.records.length === 0) continue;
    const records: DenialRecord[] = [];
    for (const record of session.records) {
      const key = `${session.analysis.host} ${record.sessionId} ${record.toolUseId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      records.push({
        ...record,
        labels: { ...record.labels, origin: "toolgate analyze", format: session.analysis.format },
      });
    }
    if (records.length === 0) continue;
    await options.store.denials.append(records);
    offered += records.length;
  }
  return offered;
}

/**
 * The figures a transcript shows that denial records alone do not (core/figures.ts): each loop analyze found, as a
 * `loop.detected` event marked `by: "host"`, and the wasted calls and tokens in a `session.summary` event. Keyed,
 * so analysing the same file again stores nothing twice; a session read from two formats is stored once.
 */
function figureEvents(session: AnalyzedSession, seen: Set<string>): KeyedAuditEvent[] {
  const { analysis } = session;
  const id = `toolgate analyze ${analysis.host} ${analysis.sessionId}`;
  if (seen.has(id) || (analysis.loops.length === 0 && analysis.wastedCalls === 0 && session.records.length === 0))
    return [];
  seen.add(id);
  const at = Date.parse(analysis.endedAt);
  const origin = { origin: "toolgate analyze", format: analysis.format };
  const events: KeyedAuditEvent[] = analysis.loops.map((loop) => ({
    kind: "loop.detected",
    sessionId: analysis.sessionId,
    turn: 0,
    at,
    tool: loop.tool,
    detail: {
      kind: loop.kind,
      by: "host",
      calls: loop.calls,
      ...(loop.after === undefined ? {} : { after: loop.after }),
      ...origin,
    },
    eventKey: `${id} loop ${loop.kind} ${loop.tool} ${loop.after ?? ""}`,
  }));
  events.push({
    kind: "session.summary",
    sessionId: analysis.sessionId,
    turn: 0,
    at,
    detail: {
      wastedCalls: analysis.wastedCalls,
      wastedTokens: analysis.wastedTokens,
      toolCalls: analysis.toolCalls,
      permissionDenialCount: analysis.denialCount,
      ...origin,
    },
    eventKey: `${id} summary`,
  });
  return events;
}

/**
 * The session's project and first prompt line (already redacted and bounded by the core), as the `session.info`
 * event the hook writes at a first prompt: the store keeps the first value of each, so saving again changes nothing.
 */
function infoEvents(session: AnalyzedSession): KeyedAuditEvent[] {
  if (session.info === undefined) return [];
  const { analysis } = session;
  return [
    {
      kind: "session.info",
      sessionId: analysis.sessionId,
      turn: 0,
      at: Date.parse(analysis.startedAt),
      detail: { ...session.info, origin: "toolgate analyze", format: analysis.format },
    },
  ];
}
