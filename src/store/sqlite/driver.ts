/**
 * The minimal SQLite surface the store needs. better-sqlite3 (Node) and bun:sqlite (Bun, where some hosts' plugins
 * run and better-sqlite3 does not load) both fit it with a thin wrapper.
 */
export type SqliteValue = string | number | bigint | null | Uint8Array;

export interface SqliteStatement {
  run(...params: SqliteValue[]): { changes: number; lastInsertRowid: number | bigint };
  all(...params: SqliteValue[]): Record<string, unknown>[];
  get(...params: SqliteValue[]): Record<string, unknown> | undefined;
}

export interface SqliteDriver {
  /** the database file (":memory:" for an in-memory database) */
  readonly filename: string;
  exec(sql: string): void;
  prepare(sql: string): SqliteStatement;
  /** runs `fn` in a transaction; `immediate` takes the write lock up front (BEGIN IMMEDIATE) */
  transaction<T>(fn: () => T, options?: { immediate?: boolean }): T;
  close(): void;
}
