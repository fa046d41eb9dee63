/** `toolgate/store/sqlite`: the embedded default store. */
export type { SqliteDriver, SqliteStatement, SqliteValue } from "./driver.js";
export { openBetterSqlite3, wrapBetterSqlite3 } from "./driver-better-sqlite3.js";
export { openBunSqlite } from "./driver-bun.js";
export { sqliteMigrations } from "./migrations/index.js";
export { createSqliteStore, type SqliteStoreOptions } from "./sqlite-store.js";
