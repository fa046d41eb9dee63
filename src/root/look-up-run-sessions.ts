import { existsSync } from "node:fs";
import { FIGURE_EVENT_KINDS } from "../core/figures.js";
import type { AuditEvent, DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import type { Store } from "../store/ports.js";
import type { SpoolBatch } from "../store/spooled-denial-store.js";

/**
 * The run's sessions (noted by their hook processes or plugins, or announced in the agent's stream): their denial
 * records and the first abort. Hook processes keep state in files (`~/.toolgate/state`) and records in the spool
 * first, so this drains the spool into the store before reading, reads each session's state file (then the
 * store's state, where in-process hosts mirror it), and when the store cannot be opened reads the spool itself:
 * a store outage never hides a denial or an abort from `toolgate run`.
 */
export async function lookUpRunSessions(
  sessionIds: readonly string[],
  options: { env?: Record<string, string | undefined> } = {},
): Promise<{
  records: DenialRecord[];
  /** the sessions' events the figures read (core/figures.ts: loop verdicts, aborts, escalations, grants) */
  events: AuditEvent[];
  aborted?: { reason: string };
  sessions: number;
}> {
  if (sessionIds.length === 0) return { records: [], events: [], sessions: 0 };
  const env = options.env ?? process.env;
  const [{ resolveStoreLocation, defaultStateDirectory }, { spoolDirectoryFor }, { openDrainedStore }, files] =
    await Promise.all([
      import("../store/resolve-store-location.js"),
      import("../store/spool-directory-for.js"),
      import("../store/open-drained-store.js"),
      import("../store/file/file-session-state-store.js"),
    ]);
  const home = env.HOME?.trim() ? env.HOME : undefined;
  const location = resolveStoreLocation({ env, ...(home ? { home } : {}) });
  if (location.engine === "memory") return { records: [], events: [], sessions: sessionIds.length };
  const stateFiles = files.createFileSessionStateStore<SessionState>({
    directory: defaultStateDirectory(home ? { home } : {}),
  });
  const spoolDirectory = spoolDirectoryFor(location, home ? { home } : {});
  let store: Store<SessionState> | undefined;
  let spooled: { records: DenialRecord[]; events: AuditEvent[] } | undefined;
  // nothing to open (no database file yet and nothing spooled) stays unopened: `run` creates no database
  if (location.engine === "postgres" || existsSync(location.filename) || existsSync(spoolDirectory)) {
    try {
      store = (await openDrainedStore<SessionState>({ env })).store;
    } catch {
      spooled = await readSpool(spoolDirectory);
    }
  }
  try {
    const records: DenialRecord[] = [];
    const figureEvents: AuditEvent[] = [];
    let aborted: { reason: string } | undefined;
    for (const sessionId of sessionIds) {
      figureEvents.push(
        ...(store
          ? await store.denials.queryEvents({ sessionId, kinds: FIGURE_EVENT_KINDS })
          : (spooled?.events ?? []).filter(
              (event) =>
                event.sessionId === sessionId && (FIGURE_EVENT_KINDS as readonly string[]).includes(event.kind),
            )),
      );
      records.push(
        ...(store
          ? await store.denials.query({ sessionId })
          : (spooled?.records ?? []).filter((record) => record.sessionId === sessionId)),
      );
      const state =
        (await stateFiles.get(sessionId).catch(() => undefined))?.state ??
        (await store?.sessions.get(sessionId).catch(() => undefined))?.state;
      if (state?.aborted === undefined || aborted !== undefined) continue;
      const events = store
        ? await store.denials.queryEvents({ sessionId, kinds: ["run.aborted"] })
        : (spooled?.events ?? []).filter((event) => event.sessionId === sessionId && event.kind === "run.aborted");
      const detail = events.at(-1)?.detail ?? {};
      const reason =
        typeof detail.error === "string" ? detail.error : `aborted at ${state.aborted.tool}: ${state.aborted.reason}`;
      aborted = { reason };
    }
    return {
      records,
      events: figureEvents,
      sessions: sessionIds.length,
      ...(aborted === undefined ? {} : { aborted }),
    };
  } finally {
    await store?.close();
  }
}

/** what waits in the spool, read without claiming anything (the store is down; a later drain ships it) */
async function readSpool(directory: string): Promise<{ records: DenialRecord[]; events: AuditEvent[] }> {
  const { createSpool } = await import("../store/spool.js");
  const batches = createSpool<SpoolBatch>({ directory, prefix: "denials" }).pending();
  return {
    records: batches.flatMap((batch) => (batch.kind === "denials" ? batch.records : [])),
    events: batches.flatMap((batch) => (batch.kind === "events" ? batch.events : [])),
  };
}
