import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDriver, SqliteStatement } from "./driver.js";

/** Opens a database with better-sqlite3 (loaded lazily, so importing this module costs nothing). */
export function openBetterSqlite3(filename: string, options: { busyTimeoutMs: number }): SqliteDriver {
  const require = createRequire(import.meta.url);
  const main = require.resolve("better-sqlite3");
  const Database = require(main) as typeof BetterSqlite3;
  const nativeBinding = releaseAddon(main);
  const database = new Database(filename, {
    timeout: options.busyTimeoutMs,
    ...(nativeBinding === undefined ? {} : { nativeBinding }),
  });
  return wrapBetterSqlite3(database, filename);
}

/**
 * The addon npm built (`build/Release/better_sqlite3.node` in the package), named directly: without it
 * better-sqlite3 asks the `bindings` package, which reads a stack trace and tries a dozen paths (a few
 * milliseconds of the hook that drains at a session's end). undefined, so `bindings` decides as before, when the
 * package holds a Debug build (which `bindings` prefers) or no Release build.
 */
export function releaseAddon(main: string): string | undefined {
  const build = join(dirname(main), "..", "build");
  const release = join(build, "Release", "better_sqlite3.node");
  return existsSync(release) && !existsSync(join(build, "Debug")) ? release : undefined;
}

export function wrapBetterSqlite3(database: BetterSqlite3.Database, filename: string): SqliteDriver {
  const statements = new Map<string, SqliteStatement>();
  return {
    filename,
    exec: (sql) => {
      database.exec(sql);
    },
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = database.prepare(sql);
        const returnsRows = prepared.reader;
        statement = {
          run: (...params) => prepared.run(...params),
          all: (...params) => (returnsRows ? (prepared.all(...params) as Record<string, unknown>[]) : []),
          get: (...params) => prepared.get(...params) as Record<string, unknown> | undefined,
        };
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction(fn, options) {
      const wrapped = database.transaction(fn);
      return options?.immediate ? wrapped.immediate() : wrapped();
    },
    close: () => database.close(),
  };
}
