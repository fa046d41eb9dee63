import { ToolgateError } from "../core/errors.js";

/**
 * One numbered, additive schema migration. Each engine has its own list with the same ids and the same meaning;
 * ids are never reused and applied migrations are never edited (the checksum catches edits).
 */
export interface Migration {
  id: number;
  name: string;
  /**
   * the first 16 hex digits of the SHA-256 of `sql`, written out so that opening a database hashes nothing (the
   * hook that drains at a session's end would otherwise load node:crypto for it); migration.test.ts checks each
   */
  checksum: string;
  sql: string;
}

/** The checksum a database records for an applied migration, and compares on every open. */
export function migrationChecksum(migration: Migration): string {
  return migration.checksum;
}

/** Rejects a database written by a newer toolgate or with an edited migration. */
export function checkApplied(options: {
  applied: Record<string, unknown>[];
  migrations: readonly Migration[];
  location: string;
}): void {
  const known = new Map(options.migrations.map((migration) => [migration.id, migration]));
  for (const row of options.applied) {
    const migration = known.get(Number(row.id));
    if (!migration) {
      throw new ToolgateError({
        code: "STORE_VERSION",
        message: `The toolgate database ${options.location} has schema migration ${row.id} (${row.name}), which this toolgate does not know: it was written by a newer version. Upgrade toolgate, or point TOOLGATE_DB / TOOLGATE_DATABASE_URL at another database.`,
        data: { location: options.location, migration: Number(row.id) },
      });
    }
    if (migrationChecksum(migration) !== row.checksum) {
      throw new ToolgateError({
        code: "STORE_VERSION",
        message: `The toolgate database ${options.location} recorded migration ${migration.id} (${migration.name}) with a different checksum: the schema was changed by another build. Use a toolgate release that matches the database, or move the database aside so toolgate creates a new one.`,
        data: { location: options.location, migration: migration.id },
      });
    }
  }
}
