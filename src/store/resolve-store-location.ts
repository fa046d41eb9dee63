import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { StoreOptions } from "../config/store-schema.js";
import { ToolgateError } from "../core/errors.js";

export type StoreLocation =
  | { engine: "sqlite"; filename: string }
  | { engine: "postgres"; connectionString: string; schema?: string }
  | { engine: "memory" };

/**
 * Which store to use: TOOLGATE_DATABASE_URL (Postgres) wins, then TOOLGATE_DB (a SQLite file), then the config's
 * `store` section, then ~/.toolgate/toolgate.db.
 */
export function resolveStoreLocation(options: {
  env?: Record<string, string | undefined>;
  config?: StoreOptions;
  home?: string;
}): StoreLocation {
  const env = options.env ?? process.env;
  const config = options.config ?? {};
  const url = env.TOOLGATE_DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: `TOOLGATE_DATABASE_URL must be a postgres:// or postgresql:// URL; for a SQLite file set TOOLGATE_DB instead.`,
      });
    }
    return { engine: "postgres", connectionString: url, ...(config.schema ? { schema: config.schema } : {}) };
  }
  const file = env.TOOLGATE_DB?.trim();
  // TOOLGATE_DB=off: nothing on disk, records and state stay in this process
  if (file === "off") return { engine: "memory" };
  if (file) return { engine: "sqlite", filename: file === ":memory:" ? file : resolve(file) };
  if (config.engine === "memory") return { engine: "memory" };
  if (config.engine === "postgres" || (config.engine === undefined && config.url)) {
    if (!config.url) {
      throw new ToolgateError({
        code: "CONFIG_INVALID",
        message: "store.engine is postgres but no URL is set: set TOOLGATE_DATABASE_URL or store.url.",
      });
    }
    return { engine: "postgres", connectionString: config.url, ...(config.schema ? { schema: config.schema } : {}) };
  }
  return { engine: "sqlite", filename: config.path ? resolve(config.path) : defaultDatabasePath(options.home) };
}

export function toolgateHome(home?: string): string {
  return join(home ?? homedir(), ".toolgate");
}

export function defaultDatabasePath(home?: string): string {
  return join(toolgateHome(home), "toolgate.db");
}

export function defaultSpoolDirectory(options: { config?: StoreOptions; home?: string } = {}): string {
  return options.config?.spoolDirectory
    ? resolve(options.config.spoolDirectory)
    : join(toolgateHome(options.home), "spool");
}

/** where the hook's local-first path keeps one state file per session (~/.toolgate/state) */
export function defaultStateDirectory(options: { home?: string } = {}): string {
  return join(toolgateHome(options.home), "state");
}
