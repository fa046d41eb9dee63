import type { DenialRecord } from "../core/records.js";
import type { Store } from "../store/ports.js";
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
