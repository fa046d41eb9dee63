import type { StoreOptions } from "../config/store-schema.js";
import type { SessionState } from "../core/state.js";
import { loadPostgresStore } from "./load-postgres-store.js";
import { createMemoryStore } from "./memory-store.js";
import type { Store } from "./ports.js";
import { resolveStoreLocation, type StoreLocation } from "./resolve-store-location.js";

/**
 * Opens the store the environment and config select (see resolveStoreLocation). Drivers load lazily, so a
 * Postgres user never loads better-sqlite3 and vice versa, and `pg` (an optional peer) is needed only with Postgres.
 */
export async function openStore<S = SessionState>(
  options: { env?: Record<string, string | undefined>; config?: StoreOptions; location?: StoreLocation } = {},
): Promise<Store<S>> {
  const location = options.location ?? resolveStoreLocation({ env: options.env, config: options.config });
  switch (location.engine) {
    case "memory":
      return createMemoryStore<S>();
    case "sqlite": {
      const { createSqliteStore } = await import("./sqlite/sqlite-store.js");
      return createSqliteStore<S>({
        filename: location.filename,
        ...(options.config?.busyTimeoutMs ? { busyTimeoutMs: options.config.busyTimeoutMs } : {}),
      });
    }
    case "postgres": {
      const { createPostgresStore } = await loadPostgresStore();
      return createPostgresStore<S>({
        connectionString: location.connectionString,
        ...(location.schema ? { schema: location.schema } : {}),
      });
    }
  }
}
