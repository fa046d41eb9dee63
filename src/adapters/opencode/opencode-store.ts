import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Effect } from "../../core/effects.js";
import type { AuditEvent, DenialRecord } from "../../core/records.js";
import type { SessionState } from "../../core/state.js";
import type { AuditSink } from "../../guard/create-guard.js";
import type { Store } from "../../store/ports.js";

/** Where the plugin's records and audit events go, and how to close it. */
export interface OpencodeRecords {
  sinks: AuditSink[];
  /** an audit event toolgate writes itself (a headless reject that stopped the run) */
  appendEvent(event: AuditEvent): Promise<void>;
  close(): Promise<void>;
}

function split(effects: readonly Effect[]): { records: DenialRecord[]; events: AuditEvent[] } {
  const records: DenialRecord[] = [];
  const events: AuditEvent[] = [];
  for (const effect of effects) {
    if (effect.type === "record") records.push(effect.record);
    if (effect.type === "audit") events.push(effect.event);
  }
  return { records, events };
}

/**
 * The SQLite store (bun:sqlite inside opencode, better-sqlite3 under Node): records and audit events as they
 * happen, and the session's latest reducer state mirrored after each step so `toolgate run` and `toolgate report`
 * see aborts. The plugin counts in memory; the store is the record, not the counter.
 */
export async function openOpencodeRecords(options: {
  databasePath: string;
  onError: (message: string) => void;
}): Promise<OpencodeRecords> {
  let store: Store;
  try {
    const { createSqliteStore } = await import("../../store/sqlite/sqlite-store.js");
    store = await createSqliteStore({ filename: options.databasePath });
  } catch (error) {
    const spool = join(dirname(options.databasePath), "spool", "opencode.jsonl");
    options.onError(
      `could not open ${options.databasePath} (${error instanceof Error ? error.message : String(error)}); writing denial records to ${spool} instead`,
    );
    return spoolRecords(spool);
  }
  const sink: AuditSink = {
    async deliver(effects, session: { sessionId: string; state: SessionState }) {
      const { records, events } = split(effects);
      if (records.length > 0) await store.denials.append(records);
      if (events.length > 0) await store.denials.appendEvents(events);
      if (records.length > 0 || events.length > 0) await store.sessions.update(session.sessionId, () => session.state);
    },
  };
  return {
    sinks: [sink],
    appendEvent: (event) => store.denials.appendEvents([event]),
    close: () => store.close(),
  };
}

/** Fallback when the database cannot be opened: one JSON line per record or event, never lost silently. */
export function spoolRecords(file: string): OpencodeRecords {
  const write = (kind: string, value: unknown) => {
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, `${JSON.stringify({ kind, value })}\n`);
  };
  return {
    sinks: [
      {
        deliver(effects) {
          const { records, events } = split(effects);
          for (const record of records) write("record", record);
          for (const event of events) write("event", event);
        },
      },
    ],
    async appendEvent(event) {
      write("event", event);
    },
    async close() {},
  };
}
