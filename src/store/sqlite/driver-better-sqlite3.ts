import { createRequire } from "node:module";
import type BetterSqlite3 from "better-sqlite3";
import type { SqliteDriver, SqliteStatement } from "./driver.js";

/** Opens a database with better-sqlite3 (loaded lazily, so importing this module costs nothing). */
export function openBetterSqlite3(filename: string, options: { busyTimeoutMs: number }): SqliteDriver {
  const require = createRequire(import.meta.url);
  const Database = require("better-sqlite3") as typeof BetterSqlite3;
  const database = new Database(filename, { timeout: options.busyTimeoutMs });
  return wrapBetterSqlite3(database, filename);
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
