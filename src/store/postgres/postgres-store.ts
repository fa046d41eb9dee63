import pg from "pg";
import { ToolgateError } from "../../core/errors.js";
import type { SessionState } from "../../core/state.js";
import { describeConnection } from "../describe-store-location.js";
import type { Store } from "../ports.js";
import { migratePostgres } from "./migrate-postgres.js";
import { createPostgresDenialStore } from "./postgres-denial-store.js";
import { createPostgresSessionStateStore } from "./postgres-session-state-store.js";

export interface PostgresStoreOptions {
  /** `postgres://user@host:5432/db` (TOOLGATE_DATABASE_URL) */
  connectionString?: string;
  /** an existing pool; the store does not end it on close */
  pool?: pg.Pool;
  /** schema for toolgate's tables (created if missing); default: the connection's search_path (public) */
  schema?: string;
  /** connections in the pool (4) */
  poolSize?: number;
  /**
   * Whether each session-state update waits for its WAL flush (true). Updates of one session serialise on its
   * row lock, so with durable commits one session manages about one update per fsync (~430/s on CI disks);
   * false trades the last few hundred milliseconds of state on a server crash for several times that rate.
   * Denial records are always written durably.
   */
  durableState?: boolean;
  /** connect timeout (5000 ms): a server that accepts and never answers fails within it */
  connectTimeoutMs?: number;
  /**
   * Postgres `lock_timeout` (1500 ms): the longest a statement waits for a row or table lock (a session-state row
   * held by another transaction) before failing, so no lock can hold a decision past its budget
   */
  lockTimeoutMs?: number;
  /** Postgres `statement_timeout` (5000 ms); the client also gives up 2 s after it (`query_timeout`) */
  statementTimeoutMs?: number;
}

/** Opens (and migrates) a Postgres store. Throws STORE_UNAVAILABLE naming the server when it cannot connect. */
export async function createPostgresStore<S = SessionState>(options: PostgresStoreOptions): Promise<Store<S>> {
  const location = describeConnection(options.connectionString);
  const ownsPool = !options.pool;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      lock_timeout: options.lockTimeoutMs ?? 1_500,
      statement_timeout: options.statementTimeoutMs ?? 5_000,
      query_timeout: (options.statementTimeoutMs ?? 5_000) + 2_000,
      options: options.schema ? `-c search_path=${options.schema}` : undefined,
    });
  // An idle client that loses its connection must not crash the host process.
  pool.on("error", () => undefined);
  try {
    await migratePostgres({ pool, location, schema: options.schema });
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    if (ToolgateError.is(error)) throw error;
    throw new ToolgateError({
      code: "STORE_UNAVAILABLE",
      message: `Cannot use the Postgres store at ${location} (${(error as Error).message}). Check that the server is running and TOOLGATE_DATABASE_URL is right; denials are spooled locally meanwhile.`,
      data: { location },
      cause: error,
    });
  }
  let closed = false;
  return {
    location,
    denials: createPostgresDenialStore({ pool }),
    sessions: createPostgresSessionStateStore<S>({ pool, durableState: options.durableState }),
    async close() {
      if (closed) return;
      closed = true;
      if (ownsPool) await pool.end();
    },
  };
}

export { describeConnection };
