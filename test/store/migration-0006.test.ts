import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { mcpProxyHost } from "../../src/hosts/mcp/host.js";
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
 * Migration 0006 (proxy host name) on a database written before it: the MCP proxy's rows stored under host `mcp`
 * are filed under the registry's name, so one host shows under one name; every other host stays as it was.
 */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const HOSTS = ["mcp", "claude-code", "codex", undefined, "mcp", "mcp-proxy"];
const before = HOSTS.map((host, index) => {
  const { host: _, ...record } = makeRecord({
    seq: index + 1,
    sessionId: `s${index}`,
    tool: "mcp__fs__write",
    at: Date.UTC(2026, 10, 10) + index,
  });
  return host === undefined ? record : { ...record, host };
});
const after = HOSTS.map((host) => (host === "mcp" ? mcpProxyHost.name : (host ?? null)));
const insertSql = (placeholder: (index: number) => string) =>
  `INSERT INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map((_, index) => placeholder(index + 1)).join(", ")})`;

describe("SQLite migration 0006 on a 0005 database", () => {
  it("files the proxy's rows stored under host mcp under mcp-proxy and leaves every other host alone", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-migration-"));
    roots.push(root);
    const filename = join(root, "toolgate.db");
    const driver = openBetterSqlite3(filename, { busyTimeoutMs: 1_000 });
    prepareSqliteDatabase(driver, sqliteMigrations.slice(0, 5));
    for (const record of before) driver.prepare(insertSql(() => "?")).run(...denialRowValues(record));
    driver.close();
    const store = await createSqliteStore({ filename });
    await store.close();
    const raw = new Database(filename, { readonly: true });
    try {
      expect(
        raw
          .prepare("SELECT host FROM denials ORDER BY id")
          .all()
          .map((row) => (row as { host: unknown }).host),
      ).toEqual(after);
    } finally {
      raw.close();
    }
  });
});

describePostgres("Postgres migration 0006 on a 0005 database", (database) => {
  it("files the proxy's rows stored under host mcp under mcp-proxy and leaves every other host alone", async () => {
    const schema = database.newSchema();
    const pool = new pg.Pool({ connectionString: database.url(), max: 1, options: `-c search_path=${schema}` });
    await migratePostgres({ pool, location: "test", schema, migrations: postgresMigrations.slice(0, 5) });
    for (const record of before)
      await pool.query(
        insertSql((index) => `$${index}`),
        denialRowValues(record),
      );
    const store = await database.createStore({ schema });
    await store.close();
    const { rows } = await pool.query("SELECT host FROM denials ORDER BY id");
    await pool.end();
    expect(rows.map((row) => row.host)).toEqual(after);
  });
});
