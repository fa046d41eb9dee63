import { type DenialRecord, withToolIdentity } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import { computeReport, matchesQuery } from "./compute-report.js";
import { denialIdentity } from "./denial-row.js";
import type {
  DenialQuery,
  DenialReport,
  DenialStore,
  KeyedAuditEvent,
  ReportQuery,
  SessionIdQuery,
  SessionStateStore,
  Store,
  StoredAuditEvent,
  StoredDenial,
  VersionedState,
} from "./ports.js";
import { mergeSessionInfo, type StoredSessionInfo, scrubbedSessionInfo, splitSessionInfo } from "./session-info-row.js";

/**
 * In-memory twins of the store ports: for in-process hosts, tests and ephemeral runs. Runtime-neutral (no
 * `node:*` imports), so the root entry can export it. Values are deep-copied through JSON on the way in and out,
 * as a database would, so callers can never mutate stored data.
 */
export function createMemoryStore<S = SessionState>(): Store<S> {
  const denials = createMemoryDenialStore();
  const sessions = createMemorySessionStateStore<S>();
  return {
    location: "memory",
    denials,
    sessions,
    close: async () => {
      await denials.close();
      await sessions.close();
    },
  };
}

export function createMemoryDenialStore(): DenialStore {
  const records: StoredDenial[] = [];
  const events: StoredAuditEvent[] = [];
  const keys = new Set<string>();
  const eventKeys = new Set<string>();
  const infos = new Map<string, StoredSessionInfo>();
  let nextId = 1;
  let nextEventId = 1;
  return {
    async append(batch: readonly DenialRecord[]) {
      for (const record of batch) {
        const key = denialIdentity(record);
        if (keys.has(key)) continue;
        keys.add(key);
        records.push({ ...copy(withToolIdentity(record)), id: nextId++ });
      }
    },
    async appendEvents(all: readonly KeyedAuditEvent[]) {
      const { events: batch, infos: described } = splitSessionInfo(all);
      for (const info of described) infos.set(info.sessionId, mergeSessionInfo(infos.get(info.sessionId), info));
      for (const { eventKey, ...event } of batch) {
        if (eventKey !== undefined) {
          if (eventKeys.has(eventKey)) continue;
          eventKeys.add(eventKey);
        }
        events.push({ ...copy(event), id: nextEventId++ });
      }
    },
    async query(query: DenialQuery = {}) {
      return copy(select(records, query));
    },
    async queryEvents(query: DenialQuery & { kinds?: readonly string[] } = {}) {
      const kinds = query.kinds ? new Set(query.kinds) : undefined;
      return copy(select(events, query).filter((event) => !kinds || kinds.has(event.kind)));
    },
    async report(query: ReportQuery = {}): Promise<DenialReport> {
      return copy(computeReport({ records, events, query }));
    },
    async sessionIds(query: SessionIdQuery) {
      const ids = new Set<string>();
      for (const row of [...records, ...events]) if (row.sessionId.startsWith(query.prefix)) ids.add(row.sessionId);
      return [...ids].sort(byteOrder).slice(0, Math.max(0, Math.floor(query.limit)));
    },
    async sessionInfo(sessionIds: readonly string[]) {
      const found = [...new Set(sessionIds)].flatMap((id) => {
        const info = infos.get(id);
        return info === undefined ? [] : [copy(info)];
      });
      return found.sort((a, b) => byteOrder(a.sessionId, b.sessionId));
    },
    async scrub(redact) {
      let changed = 0;
      for (const [index, stored] of records.entries()) {
        const { id, ...record } = stored;
        const next = copy(redact(copy(record)));
        if (JSON.stringify(next) === JSON.stringify(record)) continue;
        records[index] = { ...withToolIdentity(next), id };
        changed += 1;
      }
      return changed;
    },
    async scrubSessionInfo(redactText) {
      let changed = 0;
      for (const [id, info] of infos) {
        const next = scrubbedSessionInfo(info, redactText);
        if (next === undefined) continue;
        infos.set(id, next);
        changed += 1;
      }
      return changed;
    },
    async prune(before: number) {
      const keptRecords = records.filter((record) => record.at >= before);
      const keptEvents = events.filter((event) => event.at >= before);
      const result = { denials: records.length - keptRecords.length, events: events.length - keptEvents.length };
      for (const record of records) if (record.at < before) keys.delete(denialIdentity(record));
      records.splice(0, records.length, ...keptRecords);
      events.splice(0, events.length, ...keptEvents);
      for (const [id, info] of infos) if (info.at < before) infos.delete(id);
      return result;
    },
    async close() {},
  };
}

export function createMemorySessionStateStore<S = SessionState>(): SessionStateStore<S> {
  const sessions = new Map<string, VersionedState<string>>();
  // Updates are serialised per store (a promise chain), mirroring the row lock of the SQL stores.
  let queue: Promise<unknown> = Promise.resolve();
  return {
    async get(sessionId) {
      const stored = sessions.get(sessionId);
      return stored && { state: JSON.parse(stored.state) as S, version: stored.version };
    },
    update(sessionId, fn) {
      const run = queue.then(() => {
        const stored = sessions.get(sessionId);
        const next = fn(stored && (JSON.parse(stored.state) as S));
        const written = { state: JSON.stringify(next), version: (stored?.version ?? 0) + 1 };
        sessions.set(sessionId, written);
        return { state: JSON.parse(written.state) as S, version: written.version };
      });
      queue = run.catch(() => undefined);
      return run;
    },
    async delete(sessionId) {
      sessions.delete(sessionId);
    },
    async close() {},
  };
}

function select<T extends { id: number; at: number; sessionId: string; tool?: string }>(
  rows: readonly T[],
  query: DenialQuery,
): T[] {
  let selected = rows.filter(
    (row) => matchesQuery(row, query) && (query.afterId === undefined || row.id > query.afterId),
  );
  if (query.order === "desc") selected = selected.reverse();
  return query.limit === undefined ? selected : selected.slice(0, query.limit);
}

/** code-point order, which is UTF-8 byte order (SQLite's BINARY collation, Postgres' "C"), not UTF-16's */
function byteOrder(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let index = 0; index < Math.min(left.length, right.length); index++) {
    const difference = left[index]!.codePointAt(0)! - right[index]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
