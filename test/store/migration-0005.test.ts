import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { TOOL_IDENTITIES, toolIdentity } from "../../src/core/tool-families.js";
import { computeReport } from "../../src/store/compute-report.js";
import { DENIAL_COLUMNS, denialRowValues } from "../../src/store/denial-row.js";
import { migratePostgres } from "../../src/store/postgres/migrate-postgres.js";
import { migration0005 as postgres0005 } from "../../src/store/postgres/migrations/0005-tool-identity.js";
import { migration0007 as postgres0007 } from "../../src/store/postgres/migrations/0007-new-tool-names.js";
import { migration0011 as postgres0011 } from "../../src/store/postgres/migrations/0011-more-tool-names.js";
import { postgresMigrations } from "../../src/store/postgres/migrations/index.js";
import { openBetterSqlite3 } from "../../src/store/sqlite/driver-better-sqlite3.js";
import { migration0005 as sqlite0005 } from "../../src/store/sqlite/migrations/0005-tool-identity.js";
import { migration0007 as sqlite0007 } from "../../src/store/sqlite/migrations/0007-new-tool-names.js";
import { migration0011 as sqlite0011 } from "../../src/store/sqlite/migrations/0011-more-tool-names.js";
import { sqliteMigrations } from "../../src/store/sqlite/migrations/index.js";
import { prepareSqliteDatabase } from "../../src/store/sqlite/open-sqlite-database.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { makeRecord } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * Migration 0005 (tool identity) on a database written before it: every stored row, and every daily rollup, gets the
 * canonical tool and family the code's table gives its tool; views then group and filter by it.
 */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** every name of the table, in its own spelling and in capitals, plus MCP spellings and unknown names */
const TOOL_NAMES = [
  ...Object.keys(TOOL_IDENTITIES),
  ...Object.keys(TOOL_IDENTITIES).map((name) => name.toUpperCase()),
  "mcp__github__create_issue",
  "mcp_github_create_issue",
  "mcp__my_server__do__it",
  "mcp__solo",
  "mcp_",
  "MCP__github__x",
  "Task",
  "toString",
  "__proto__",
];
const DAY = 86_400_000;
const start = Date.UTC(2026, 10, 10, 12);
const before: DenialRecord[] = TOOL_NAMES.map((tool, index) =>
  makeRecord({
    seq: index + 1,
    sessionId: `s${index % 3}`,
    tool,
    signature: `${tool}:call`,
    at: start + (index % 4) * DAY + index,
  }),
);
/** the columns of 0004 (0005 added canonical_tool and tool_family after them) */
const columns = DENIAL_COLUMNS.slice(0, DENIAL_COLUMNS.indexOf("canonical_tool"));
const insertSql = (placeholder: (index: number) => string) =>
  `INSERT INTO denials (${columns.join(", ")}) VALUES (${columns.map((_, index) => placeholder(index + 1)).join(", ")})`;
const oldRow = (record: DenialRecord) => denialRowValues(record).slice(0, columns.length);
const expected = (tool: string) => ({ tool, ...identityColumns(tool) });
const identityColumns = (tool: string) => ({
  canonical_tool: toolIdentity(tool).canonical,
  tool_family: toolIdentity(tool).family,
});

/** the (name, canonical, family) triples the migration's SQL lists */
function listedNames(sql: string): [string, string, string][] {
  return [...sql.matchAll(/\('([^']*)', '([^']*)', '([^']*)'\)/g)].map((match) => [match[1]!, match[2]!, match[3]!]);
}

describe("the tool lists of migrations 0005, 0007 and 0011 (the names added since)", () => {
  it.each([
    ["sqlite", sqlite0005.sql + sqlite0007.sql + sqlite0011.sql],
    ["postgres", postgres0005.sql + postgres0007.sql + postgres0011.sql],
  ])("%s lists every name of the table, lower-cased, with the code's canonical tool and family", (_, sql) => {
    const listed = listedNames(sql);
    const table = new Map(
      Object.entries(TOOL_IDENTITIES).map(([name, identity]) => [
        name.toLowerCase(),
        [name.toLowerCase(), identity.canonical, identity.family],
      ]),
    );
    expect(listed.sort()).toEqual([...table.values()].sort());
  });
});

describe("SQLite migration 0005 on a 0004 database", () => {
  it("back-fills every row and rollup with the code's identity; reports then group and filter by it", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-migration-"));
    roots.push(root);
    const filename = join(root, "toolgate.db");
    const driver = openBetterSqlite3(filename, { busyTimeoutMs: 1_000 });
    prepareSqliteDatabase(driver, sqliteMigrations.slice(0, 4));
    for (const record of before) driver.prepare(insertSql(() => "?")).run(...oldRow(record));
    // the rollups of 0002 as the store of 0004 kept them (0004's own rollup has its triggers)
    driver.exec(`INSERT INTO denial_daily (day, tool, signature, total, first_id)
      SELECT day, tool, signature, count(*), min(id) FROM denials GROUP BY day, tool, signature;
      INSERT INTO denial_daily_sessions (day, tool, session_id, total)
      SELECT day, tool, session_id, count(*) FROM denials GROUP BY day, tool, session_id`);
    driver.close();

    const store = await createSqliteStore({ filename });
    const raw = new Database(filename, { readonly: true });
    try {
      expect(raw.prepare("SELECT tool, canonical_tool, tool_family FROM denials ORDER BY id").all()).toEqual(
        TOOL_NAMES.map(expected),
      );
      for (const table of ["denial_daily", "denial_daily_sessions", "denial_daily_sources"]) {
        const rows = raw.prepare(`SELECT DISTINCT tool, canonical_tool FROM ${table}`).all() as {
          tool: string;
          canonical_tool: string;
        }[];
        expect(rows.length, table).toBe(new Set(TOOL_NAMES).size);
        for (const row of rows)
          expect(row.canonical_tool, `${table} ${row.tool}`).toBe(toolIdentity(row.tool).canonical);
      }
    } finally {
      raw.close();
    }
    await store.denials.append([makeRecord({ seq: 1, sessionId: "after", tool: "exec_command", at: start })]);
    const records = [...before, makeRecord({ seq: 1, sessionId: "after", tool: "exec_command", at: start })];
    for (const query of [{}, { tool: "shell" }, { since: start - DAY, until: start + 5 * DAY, tool: "Bash" }]) {
      expect(await store.denials.report(query), JSON.stringify(query)).toEqual(
        computeReport({ records, events: [], query }),
      );
    }
    const shells = TOOL_NAMES.filter((tool) => toolIdentity(tool).canonical === "shell").length + 1;
    expect((await store.denials.report({ tool: "shell", top: 100 })).topTools).toEqual([
      expect.objectContaining({ tool: "shell", count: shells }),
    ]);
    await store.close();
  });
});

describePostgres("Postgres migration 0005 on a 0004 database", (database) => {
  it("back-fills every row and rollup with the code's identity; reports then group and filter by it", async () => {
    const schema = database.newSchema();
    const pool = new pg.Pool({ connectionString: database.url(), max: 1, options: `-c search_path=${schema}` });
    await migratePostgres({ pool, location: "test", schema, migrations: postgresMigrations.slice(0, 4) });
    for (const record of before)
      await pool.query(
        insertSql((index) => `$${index}`),
        oldRow(record),
      );
    await pool.query(`INSERT INTO denial_daily (day, tool, signature, total, first_id)
      SELECT day, tool, signature, count(*), min(id) FROM denials GROUP BY day, tool, signature`);
    await pool.query(`INSERT INTO denial_daily_sessions (day, tool, session_id, total)
      SELECT day, tool, session_id, count(*) FROM denials GROUP BY day, tool, session_id`);

    const store = await database.createStore({ schema });
    const { rows } = await pool.query("SELECT tool, canonical_tool, tool_family FROM denials ORDER BY id");
    expect(rows).toEqual(TOOL_NAMES.map(expected));
    for (const table of ["denial_daily", "denial_daily_sessions", "denial_daily_sources"]) {
      const result = await pool.query(`SELECT DISTINCT tool, canonical_tool FROM ${table}`);
      expect(result.rows.length, table).toBe(new Set(TOOL_NAMES).size);
      for (const row of result.rows)
        expect(row.canonical_tool, `${table} ${row.tool}`).toBe(toolIdentity(row.tool).canonical);
    }
    await pool.end();
    const after = makeRecord({ seq: 1, sessionId: "after", tool: "exec_command", at: start });
    await store.denials.append([after]);
    const records = [...before, after];
    for (const query of [{}, { tool: "shell" }, { since: start - DAY, until: start + 5 * DAY, tool: "Bash" }]) {
      expect(await store.denials.report(query), JSON.stringify(query)).toEqual(
        computeReport({ records, events: [], query }),
      );
    }
    await store.close();
  });
});
