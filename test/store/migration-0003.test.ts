import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { DENIAL_COLUMNS, denialRowValues } from "../../src/store/denial-row.js";
import { migratePostgres } from "../../src/store/postgres/migrate-postgres.js";
import { postgresMigrations } from "../../src/store/postgres/migrations/index.js";
import { openBetterSqlite3 } from "../../src/store/sqlite/driver-better-sqlite3.js";
import { sqliteMigrations } from "../../src/store/sqlite/migrations/index.js";
import { prepareSqliteDatabase } from "../../src/store/sqlite/open-sqlite-database.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { makeRecord } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * Migration 0003 (record identity) on a database written before it: every row and id kept, ids never reused,
 * replays still skipped, and a restarted numbering no longer dropped.
 */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const before = [1, 2, 3, 4].map((seq) => makeRecord({ seq, sessionId: "x", toolUseId: `toolu_a_${seq}` }));
const restarted = makeRecord({ seq: 1, sessionId: "x", toolUseId: "toolu_b_1", at: Date.UTC(2026, 10, 21) });
/** the columns of 0001 (migration 0005 added canonical_tool and tool_family after them) */
const columns = DENIAL_COLUMNS.slice(0, DENIAL_COLUMNS.indexOf("canonical_tool"));
const rowValues = (record: DenialRecord) => denialRowValues(record).slice(0, columns.length);
const insertSql = (placeholder: (index: number) => string) =>
  `INSERT INTO denials (${columns.join(", ")}) VALUES (${columns.map((_, index) => placeholder(index + 1)).join(", ")})`;

describe("SQLite migrations 0002 and 0003 on a 0001 database", () => {
  it("keeps rows and ids, never reuses an id, and keeps a restarted numbering", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-migration-"));
    roots.push(root);
    const filename = join(root, "toolgate.db");
    const driver = openBetterSqlite3(filename, { busyTimeoutMs: 1_000 });
    prepareSqliteDatabase(driver, sqliteMigrations.slice(0, 1)); // 0002 backfills its rollups from these rows
    for (const record of before) driver.prepare(insertSql(() => "?")).run(...rowValues(record));
    driver.prepare("DELETE FROM denials WHERE id = 4").run(); // the newest row pruned: its id must stay used
    driver.close();

    const store = await createSqliteStore({ filename });
    const rows = await store.denials.query();
    expect(rows.map(({ id, ...record }) => [id, record])).toEqual(
      before.slice(0, 3).map((record, index) => [index + 1, record]),
    );
    await store.denials.append([before[0]!, restarted]); // a replay and a record of a restarted numbering
    const after = await store.denials.query();
    expect(after.map((row) => row.toolUseId)).toEqual(["toolu_a_1", "toolu_a_2", "toolu_a_3", "toolu_b_1"]);
    expect(after.slice(0, 3).map((row) => row.id)).toEqual([1, 2, 3]);
    expect(after[3]!.id).toBeGreaterThan(4); // 4 was used before the migration (then pruned): never reused
    expect((await store.denials.report()).total).toBe(4);
    await store.close();
    const raw = new Database(filename, { readonly: true });
    expect(raw.prepare("SELECT id FROM toolgate_migrations ORDER BY id").all()).toEqual(
      sqliteMigrations.map((migration) => ({ id: migration.id })),
    );
    expect(raw.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'denials_before%'").all()).toEqual([]);
    raw.close();
  });
});

describePostgres("Postgres migrations 0002 and 0003 on a 0001 database", (database) => {
  it("keeps rows, skips replays, and keeps a restarted numbering", async () => {
    const schema = database.newSchema();
    const pool = new pg.Pool({ connectionString: database.url(), max: 1, options: `-c search_path=${schema}` });
    await migratePostgres({ pool, location: "test", schema, migrations: postgresMigrations.slice(0, 1) });
    for (const record of before.slice(0, 3)) {
      await pool.query(
        insertSql((index) => `$${index}`),
        rowValues(record),
      );
    }
    await pool.end();

    const store = await database.createStore({ schema });
    await store.denials.append([before[0]!, restarted]);
    const rows = await store.denials.query();
    expect(rows.map((row) => row.toolUseId)).toEqual(["toolu_a_1", "toolu_a_2", "toolu_a_3", "toolu_b_1"]);
    expect((await store.denials.report()).total).toBe(4);
    await store.close();
  });
});
