import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync } from "node:fs";
import { dirname } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import type { Migration } from "../migration.js";
import { checkApplied, migrationChecksum } from "../migration.js";
import type { SqliteDriver } from "./driver.js";
import { sqliteMigrations } from "./migrations/index.js";

const SQLITE_HEADER = "SQLite format 3\u0000";

/**
 * Prepares a SQLite database for the store: WAL, synchronous=NORMAL, then migrations (each in its own
 * transaction, recorded in `toolgate_migrations` with a checksum). Maps a corrupt file or a newer schema to a
 * ToolgateError that names the file and the fix.
 */
export function prepareSqliteDatabase(driver: SqliteDriver, migrations: readonly Migration[] = sqliteMigrations) {
  const file = driver.filename;
  try {
    if (file !== ":memory:") driver.exec("PRAGMA journal_mode = WAL");
    driver.exec("PRAGMA synchronous = NORMAL");
    driver.exec(
      "CREATE TABLE IF NOT EXISTS toolgate_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = driver.prepare("SELECT id, name, checksum FROM toolgate_migrations ORDER BY id").all();
    checkApplied({ applied, migrations, location: file });
    const done = new Set(applied.map((row) => Number(row.id)));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      driver.transaction(
        () => {
          // Another process may have applied it while we waited for the write lock.
          if (driver.prepare("SELECT 1 AS present FROM toolgate_migrations WHERE id = ?").get(migration.id)) return;
          driver.exec(migration.sql);
          driver
            .prepare("INSERT INTO toolgate_migrations (id, name, checksum, applied_at) VALUES (?, ?, ?, ?)")
            .run(migration.id, migration.name, migrationChecksum(migration), new Date().toISOString());
        },
        { immediate: true },
      );
    }
  } catch (error) {
    throw toStoreError(error, file);
  }
}

/** SQLite errors that mean the file is not a usable database become STORE_CORRUPT; others STORE_UNAVAILABLE. */
export function toStoreError(error: unknown, file: string): unknown {
  if (ToolgateError.is(error)) return error;
  const code = (error as { code?: string }).code ?? "";
  if (code.startsWith("SQLITE_CORRUPT") || code === "SQLITE_NOTADB" || looksCorrupt(file)) {
    return new ToolgateError({
      code: "STORE_CORRUPT",
      message: `The toolgate database ${file} is not a valid SQLite database (${(error as Error).message}). Move it aside (mv "${file}" "${file}.broken") and toolgate creates a new one on next use; denials are kept in the spool meanwhile.`,
      data: { location: file },
      cause: error,
    });
  }
  return new ToolgateError({
    code: "STORE_UNAVAILABLE",
    message: `The toolgate database ${file} could not be opened (${(error as Error).message}). Check that the directory is writable, or set TOOLGATE_DB to another path.`,
    data: { location: file },
    cause: error,
  });
}

function looksCorrupt(file: string): boolean {
  if (file === ":memory:" || !existsSync(file)) return false;
  const buffer = Buffer.alloc(SQLITE_HEADER.length);
  let descriptor: number | undefined;
  try {
    descriptor = openSync(file, "r");
    const read = readSync(descriptor, buffer, 0, buffer.length, 0);
    return read > 0 && buffer.subarray(0, read).toString("latin1") !== SQLITE_HEADER.slice(0, read);
  } catch {
    return false; // a directory or an unreadable file: not a corrupt database, an unusable path
  } finally {
    if (descriptor !== undefined) closeSync(descriptor);
  }
}

/**
 * Makes a new database's folder (0700) before SQLite opens it: records hold commands and paths, so they are this
 * user's alone, whichever command created them. Returns whether the database file is new (then `makePrivate`
 * narrows its mode to 0600 once SQLite made it; SQLite gives its -wal and -shm files the database's mode).
 */
export function ensureParentDirectory(file: string): boolean {
  if (file === ":memory:") return false;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  return !existsSync(file);
}

/** 0600 for a database file this process created (see ensureParentDirectory) */
export function makePrivate(file: string): void {
  try {
    chmodSync(file, 0o600);
  } catch {
    // gone or not ours to change: the folder is 0700 either way
  }
}
