import type { SessionState } from "../../core/state.js";
import type { Store } from "../ports.js";
import { withRetry } from "../retry.js";
import type { SqliteDriver } from "./driver.js";
import { openBetterSqlite3 } from "./driver-better-sqlite3.js";
import { isBun, openBunSqlite } from "./driver-bun.js";
import { isAddonVersionMismatch, openNodeSqlite } from "./driver-node-sqlite.js";
import { ensureParentDirectory, makePrivate, prepareSqliteDatabase, toStoreError } from "./open-sqlite-database.js";
import { createSqliteDenialStore } from "./sqlite-denial-store.js";
import { createSqliteSessionStateStore } from "./sqlite-session-state-store.js";

export interface SqliteStoreOptions {
  /** database file (created with its directory on first use); ":memory:" for a throwaway database */
  filename?: string;
  /** an already-open driver (bun:sqlite, a test double); `filename` is ignored */
  driver?: SqliteDriver;
  /**
   * how long SQLite itself waits for a lock before reporting SQLITE_BUSY (750 ms). With the defaults a locked
   * database fails an operation after at most about 1.55 s (750 + 50 + 750 ms), so a lock held by another process
   * (a long `BEGIN EXCLUSIVE`) never holds a decision past its budget; the caller spools or fails closed.
   */
  busyTimeoutMs?: number;
  /** attempts in all, with doubling backoff from `retryDelayMs` between them (2 attempts, 50 ms) */
  lockAttempts?: number;
  retryDelayMs?: number;
}

/** better-sqlite3; node:sqlite when its addon was built for another Node (a host's own Node loads toolgate). */
function openOnNode(filename: string, options: { busyTimeoutMs: number }): SqliteDriver {
  try {
    return openBetterSqlite3(filename, options);
  } catch (error) {
    if (!isAddonVersionMismatch(error)) throw error;
    return openNodeSqlite(filename, options);
  }
}

/** Opens (and migrates) a SQLite store: better-sqlite3 under Node, bun:sqlite under Bun. */
export async function createSqliteStore<S = SessionState>(options: SqliteStoreOptions = {}): Promise<Store<S>> {
  const filename = options.driver?.filename ?? options.filename ?? ":memory:";
  const busyTimeoutMs = options.busyTimeoutMs ?? 750;
  let driver = options.driver;
  if (!driver) {
    try {
      const created = ensureParentDirectory(filename);
      driver = isBun() ? await openBunSqlite(filename, { busyTimeoutMs }) : openOnNode(filename, { busyTimeoutMs });
      if (created) makePrivate(filename);
    } catch (error) {
      throw toStoreError(error, filename);
    }
  }
  const opened = driver;
  try {
    prepareSqliteDatabase(opened);
  } catch (error) {
    opened.close();
    throw error;
  }
  const write = <T>(operation: () => T): Promise<T> =>
    withRetry(operation, {
      attempts: options.lockAttempts ?? 2,
      baseDelayMs: options.retryDelayMs ?? 50,
      isRetryable: isLocked,
    });
  let closed = false;
  return {
    location: `sqlite:${filename}`,
    denials: createSqliteDenialStore({ driver: opened, write }),
    sessions: createSqliteSessionStateStore<S>({ driver: opened, write }),
    async close() {
      if (closed) return;
      closed = true;
      opened.close();
    },
  };
}

export function isLocked(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code ?? "";
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}
