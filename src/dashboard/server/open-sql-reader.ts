import { ToolgateError } from "../../core/errors.js";
import { parsedJson, parseJson } from "../../store/denial-row.js";
import { isMissingPackage, missingPostgresDriver } from "../../store/load-postgres-store.js";
import type { StoreLocation } from "../../store/resolve-store-location.js";
import type { SqliteDriver } from "../../store/sqlite/driver.js";
import { openBetterSqlite3 } from "../../store/sqlite/driver-better-sqlite3.js";
import type { SqlReader } from "./sql-reader.js";

/**
 * A read-only reader over the database of an open store (the store has migrated it and drained the spool into it
 * first). SQLite: a second connection with `PRAGMA query_only`; Postgres: a small pool whose transactions are
 * read-only. The in-memory store has no database to read: DASHBOARD_STORE says what to do.
 */
export async function openSqlReader(location: StoreLocation): Promise<SqlReader> {
  switch (location.engine) {
    case "sqlite": {
      if (location.filename === ":memory:") throw memoryStoreError();
      return sqliteReader(openBetterSqlite3(location.filename, { busyTimeoutMs: 2_000 }), { owned: true });
    }
    case "postgres":
      return postgresReader(location.connectionString, location.schema);
    case "memory":
      throw memoryStoreError();
  }
}

/** A reader over an open SQLite driver; `owned` closes the driver with the reader. */
export function sqliteReader(driver: SqliteDriver, options: { owned: boolean }): SqlReader {
  driver.exec("PRAGMA query_only = ON");
  return {
    engine: "sqlite",
    all: async (sql, params) => {
      const statement = driver.prepare(sql);
      if (/^\s*(SELECT|WITH)\b/i.test(sql)) return statement.all(...params);
      statement.run(...params); // anything else is a write: `query_only` makes SQLite refuse it
      return [];
    },
    placeholder: () => "?",
    decodeJson: parseJson,
    async close() {
      if (options.owned) driver.close();
    },
  };
}

async function postgresReader(connectionString: string, schema: string | undefined): Promise<SqlReader> {
  let pg: typeof import("pg").default;
  try {
    pg = (await import("pg")).default;
  } catch (error) {
    if (!isMissingPackage(error, "pg")) throw error;
    throw missingPostgresDriver(error);
  }
  const searchPath = schema ? ` -c search_path=${schema}` : "";
  const pool = new pg.Pool({
    connectionString,
    max: 4,
    connectionTimeoutMillis: 5_000,
    statement_timeout: 30_000,
    options: `-c default_transaction_read_only=on${searchPath}`,
  });
  pool.on("error", () => undefined);
  return {
    engine: "postgres",
    all: async (sql, params) => (await pool.query(sql, params)).rows,
    placeholder: (index) => `$${index}`,
    decodeJson: parsedJson,
    close: () => pool.end(),
  };
}

function memoryStoreError(): ToolgateError {
  return new ToolgateError({
    code: "STORE_UNAVAILABLE",
    message:
      "The dashboard reads a SQLite file or a Postgres database, and the store selected is in memory (TOOLGATE_DB=off or :memory:). Unset TOOLGATE_DB, or point it at a file.",
  });
}
