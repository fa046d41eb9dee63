import { existsSync } from "node:fs";
import type { DenialRecord } from "../core/records.js";

/** The run's sessions (noted by their hook processes or plugins, or announced in the agent's stream), from the store. */
export async function lookUpRunSessions(sessionIds: readonly string[]): Promise<{
  records: DenialRecord[];
  aborted?: { reason: string };
  sessions: number;
}> {
  if (sessionIds.length === 0) return { records: [], sessions: 0 };
  const [{ resolveStoreLocation }, { openStore }] = await Promise.all([
    import("../store/resolve-store-location.js"),
    import("../store/open-store.js"),
  ]);
  const location = resolveStoreLocation({ env: process.env });
  if (location.engine === "memory" || (location.engine === "sqlite" && !existsSync(location.filename))) {
    return { records: [], sessions: sessionIds.length };
  }
  const store = await openStore({ location });
  try {
    const records: DenialRecord[] = [];
    let aborted: { reason: string } | undefined;
    for (const sessionId of sessionIds) {
      records.push(...(await store.denials.query({ sessionId })));
      const state = (await store.sessions.get(sessionId))?.state;
      if (state?.aborted === undefined || aborted !== undefined) continue;
      const events = await store.denials.queryEvents({ sessionId, kinds: ["run.aborted"] });
      const detail = events.at(-1)?.detail ?? {};
      const reason =
        typeof detail.error === "string" ? detail.error : `aborted at ${state.aborted.tool}: ${state.aborted.reason}`;
      aborted = { reason };
    }
    return { records, sessions: sessionIds.length, ...(aborted === undefined ? {} : { aborted }) };
  } finally {
    await store.close();
  }
}
