import type { Pool, QueryConfig } from "pg";
import type { Migration } from "../migration.js";
import { checkApplied, migrationChecksum } from "../migration.js";
import { postgresMigrations } from "./migrations/index.js";

/**
 * Applies pending migrations in one transaction under an advisory lock, so processes that start together
 * migrate once. Rejects a database written by a newer toolgate (STORE_VERSION). Migrations may rebuild indexes on
 * big tables, so the transaction lifts the store's short statement timeout (to 10 minutes) and waits up to 60 s for
 * the advisory lock; the client-side timeout is raised to match.
 */
export async function migratePostgres(options: {
  pool: Pool;
  location: string;
  schema?: string;
  migrations?: readonly Migration[];
}): Promise<void> {
  const migrations = options.migrations ?? postgresMigrations;
  const client = await options.pool.connect();
  const query = (text: string, values?: unknown[]) =>
    client.query({ text, values, query_timeout: 620_000 } as QueryConfig);
  try {
    await client.query("BEGIN");
    await client.query("SET LOCAL statement_timeout = '10min'; SET LOCAL lock_timeout = '60s'");
    await query("SELECT pg_advisory_xact_lock(hashtext('toolgate_migrations'))");
    if (options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(options.schema)}`);
    await client.query(
      "CREATE TABLE IF NOT EXISTS toolgate_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at TEXT NOT NULL)",
    );
    const applied = (await client.query("SELECT id, name, checksum FROM toolgate_migrations ORDER BY id")).rows;
    checkApplied({ applied, migrations, location: options.location });
    const done = new Set(applied.map((row) => Number(row.id)));
    for (const migration of migrations) {
      if (done.has(migration.id)) continue;
      await query(migration.sql);
      await client.query("INSERT INTO toolgate_migrations (id, name, checksum, applied_at) VALUES ($1, $2, $3, $4)", [
        migration.id,
        migration.name,
        migrationChecksum(migration),
        new Date().toISOString(),
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
