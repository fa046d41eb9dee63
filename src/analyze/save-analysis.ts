import type { DenialRecord } from "../core/records.js";
import type { Store } from "../store/ports.js";
import type { AnalyzedSession } from "./analyze-transcripts.js";

/**
 * `--save`: appends the denial records the replay produced for what really happened (the host's denials, never
 * the refusals toolgate would have added) through the store's idempotent `append`. A record's identity is the
 * store's (session id, seq, time, tool_use_id): all four come from the transcript and the deterministic replay, so
 * analysing the same file again adds nothing. Returns the number of records offered to the store.
 */
export async function saveAnalysis(options: {
  store: Store<unknown>;
  sessions: readonly AnalyzedSession[];
}): Promise<number> {
  let offered = 0;
  for (const session of options.sessions) {
    if (session.records.length === 0) continue;
    const records: DenialRecord[] = session.records.map((record) => ({
      ...record,
      labels: { ...record.labels, origin: "toolgate analyze", format: session.analysis.format },
    }));
    await options.store.denials.append(records);
    offered += records.length;
  }
  return offered;
}
