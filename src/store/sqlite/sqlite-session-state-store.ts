import type { SessionState } from "../../core/state.js";
import type { SessionStateStore, VersionedState } from "../ports.js";
import type { SqliteDriver } from "./driver.js";

/**
 * SessionStateStore over SQLite: each update is one BEGIN IMMEDIATE transaction (read, fn, write), so concurrent
 * processes serialise on the database write lock and no increment is lost. busy_timeout waits for the lock;
 * `write` adds a bounded retry on top.
 */
export function createSqliteSessionStateStore<S = SessionState>(options: {
  driver: SqliteDriver;
  write: <T>(operation: () => T) => Promise<T>;
}): SessionStateStore<S> {
  const { driver, write } = options;
  const read = (sessionId: string): VersionedState<S> | undefined => {
    const row = driver.prepare("SELECT version, state FROM session_state WHERE session_id = ?").get(sessionId);
    return row && { state: JSON.parse(String(row.state)) as S, version: Number(row.version) };
  };
  return {
    async get(sessionId) {
      return read(sessionId);
    },
    async update(sessionId, fn) {
      return write(() =>
        driver.transaction(
          () => {
            const current = read(sessionId);
            const next = JSON.stringify(fn(current?.state));
            const version = (current?.version ?? 0) + 1;
            driver
              .prepare(
                `INSERT INTO session_state (session_id, version, state, updated_at) VALUES (?, ?, ?, ?)
                 ON CONFLICT (session_id) DO UPDATE SET version = excluded.version, state = excluded.state, updated_at = excluded.updated_at`,
              )
              .run(sessionId, version, next, Date.now());
            return { state: JSON.parse(next) as S, version };
          },
          { immediate: true },
        ),
      );
    },
    async delete(sessionId) {
      await write(() => driver.prepare("DELETE FROM session_state WHERE session_id = ?").run(sessionId));
    },
    async close() {},
  };
}
