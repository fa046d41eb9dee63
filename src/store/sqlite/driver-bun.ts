import type { SqliteDriver, SqliteStatement, SqliteValue } from "./driver.js";

interface BunStatement {
  run(...params: SqliteValue[]): { changes: number; lastInsertRowid: number | bigint };
  all(...params: SqliteValue[]): Record<string, unknown>[];
  get(...params: SqliteValue[]): Record<string, unknown> | null;
}
interface BunDatabase {
  exec(sql: string): void;
  prepare(sql: string): BunStatement;
  transaction<T>(fn: () => T): (() => T) & { immediate: () => T };
  close(): void;
}

/**
 * Opens a database with `bun:sqlite` (only under Bun). The module name is built at run time so Node and tsc never
 * try to resolve it.
 */
export async function openBunSqlite(filename: string, options: { busyTimeoutMs: number }): Promise<SqliteDriver> {
  const moduleName = ["bun", "sqlite"].join(":");
  const { Database } = (await import(moduleName)) as { Database: new (filename: string) => BunDatabase };
  const database = new Database(filename);
  database.exec(`PRAGMA busy_timeout = ${Math.floor(options.busyTimeoutMs)}`);
  const statements = new Map<string, SqliteStatement>();
  return {
    filename,
    exec: (sql) => database.exec(sql),
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        const prepared = database.prepare(sql);
        statement = {
          run: (...params) => prepared.run(...params),
          all: (...params) => prepared.all(...params),
          get: (...params) => prepared.get(...params) ?? undefined,
        };
        statements.set(sql, statement);
      }
      return statement;
    },
    transaction(fn, transactionOptions) {
      const wrapped = database.transaction(fn);
      return transactionOptions?.immediate ? wrapped.immediate() : wrapped();
    },
    close: () => database.close(),
  };
}

/** whether this process runs under Bun */
export function isBun(): boolean {
  return typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
}
