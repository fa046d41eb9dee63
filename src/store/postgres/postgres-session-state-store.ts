import type { Pool, QueryResult } from "pg";
import type { SessionState } from "../../core/state.js";
import type { SessionStateStore } from "../ports.js";
import { postgresSafe } from "./postgres-safe.js";

/**
 * SessionStateStore over Postgres: one transaction per update that makes sure the row exists (version 0 means
 * "no state yet"), locks it with SELECT ... FOR UPDATE, runs fn, and writes version + 1. Concurrent writers queue
 * on the row lock, so no increment is lost.
 */
export function createPostgresSessionStateStore<S = SessionState>(options: {
  pool: Pool;
  /** false: `SET LOCAL synchronous_commit = off` for state updates (see PostgresStoreOptions) */
  durableState?: boolean;
}): SessionStateStore<S> {
  const { pool } = options;
  const begin = options.durableState === false ? "BEGIN; SET LOCAL synchronous_commit = off" : "BEGIN";
  return {
    async get(sessionId) {
      const { rows } = await pool.query(
        "SELECT version, state FROM session_state WHERE session_id = $1 AND version > 0",
        [sessionId],
      );
      return rows[0] && { state: rows[0].state as S, version: Number(rows[0].version) };
    },
    async update(sessionId, fn) {
      const client = await pool.connect();
      const id = client.escapeLiteral(sessionId);
      try {
        // Two round trips, each a multi-statement simple query with escaped literals: the row lock is held for
        // one round trip plus fn, which is what bounds throughput when many processes update one session.
        const results = (await client.query(
          `${begin}; INSERT INTO session_state (session_id, version, state, updated_at) VALUES (${id}, 0, 'null', 0) ON CONFLICT (session_id) DO NOTHING; SELECT version, state FROM session_state WHERE session_id = ${id} FOR UPDATE`,
        )) as unknown as QueryResult[];
        const row = results.at(-1)!.rows[0]!;
        const version = Number(row.version);
        const text = JSON.stringify(postgresSafe(fn(version === 0 ? undefined : (row.state as S))));
        await client.query(
          `UPDATE session_state SET version = ${version + 1}, state = ${client.escapeLiteral(text)}::jsonb, updated_at = ${Date.now()} WHERE session_id = ${id}; COMMIT`,
        );
        return { state: JSON.parse(text) as S, version: version + 1 };
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    async delete(sessionId) {
      await pool.query("DELETE FROM session_state WHERE session_id = $1", [sessionId]);
    },
    async close() {},
  };
}
