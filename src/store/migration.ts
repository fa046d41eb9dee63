import { createHash } from "node:crypto";
import { ToolgateError } from "../core/errors.js";

/**
 * One numbered, additive schema migration. Each engine has its own list with the same ids and the same meaning;
 * ids are never reused and applied migrations are never edited (the checksum catches edits).
 */
export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export function migrationChecksum(migration: Migration): string {
  return createHash("sha256").update(migration.sql).digest("hex").slice(0, 16);
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
