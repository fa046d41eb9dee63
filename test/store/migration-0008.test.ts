import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { DENIAL_COLUMNS, denialRowValues } from "../../src/store/denial-row.js";
import type { Store } from "../../src/store/ports.js";
import { migratePostgres } from "../../src/store/postgres/migrate-postgres.js";
import { postgresMigrations } from "../../src/store/postgres/migrations/index.js";
import { openBetterSqlite3 } from "../../src/store/sqlite/driver-better-sqlite3.js";
import { sqliteMigrations } from "../../src/store/sqlite/migrations/index.js";
import { prepareSqliteDatabase } from "../../src/store/sqlite/open-sqlite-database.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { makeRecord } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * Migration 0008 (daily calls): the `denial_daily_calls` rollup is back-filled from the rows a 0007 database holds,
 * and its triggers keep it equal to a count of `denials` (done here in JavaScript, row by row) through appends, an
 * update of keyed columns, and a prune that cuts a day in half (first ids and times recounted).
 */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 10, 6);
/** sessions with and without an agent, host and labels, calls repeated over days and sources */
function records(offset: number, count: number): DenialRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const n = offset + index;
    const {
      host: _host,
      labels: _labels,
      ...bare
    } = makeRecord({
      seq: n + 1,
      sessionId: `s${n % 4}`,
      tool: n % 4 < 2 ? "Bash" : "exec_command",
      signature: `sig-${(n >> 2) % 2}`,
      pattern: `p${(n >> 2) % 2}`,
      source: n % 7 === 0 ? "loop" : "rule",
      at: START + Math.floor(n / 8) * (DAY / 4) + n,
      ...(n % 8 === 1 ? { agentId: "agent-1" } : {}),
    });
    return {
      ...bare,
      ...(n % 4 === 3 ? {} : { host: n % 4 === 0 ? "codex" : "claude-code" }),
      ...(n % 4 === 2 ? {} : { labels: { workflow: n % 4 === 0 ? "ci" : "local" } }),
    };
  });
}
const insertSql = (placeholder: (index: number) => string) =>
  `INSERT INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map((_, index) => placeholder(index + 1)).join(", ")})`;

const ROLLUP = `SELECT day, session_id, agent, tool, signature, source, pattern, host, labels, canonical_tool,
  parent_session_id, total, first_id, first_at, last_at FROM denial_daily_calls`;

/** the rollup as it should be: `denials` counted in JavaScript, one entry per key */
function expectedRollup(rows: Record<string, unknown>[], labelsText: (value: unknown) => string) {
  const entries = new Map<string, Record<string, string | number | null>>();
  for (const row of rows) {
    const labels = row.labels == null ? "{}" : labelsText(row.labels);
    const key = [row.day, row.session_id, row.agent_id ?? "", row.tool, row.signature, row.source, row.pattern]
      .concat([row.host ?? "", labels])
      .join("\u0000");
    const id = Number(row.id);
    const at = Number(row.at);
    const known = entries.get(key);
    if (known) {
      known.total = Number(known.total) + 1;
      known.first_id = Math.min(Number(known.first_id), id);
      known.first_at = Math.min(Number(known.first_at), at);
      known.last_at = Math.max(Number(known.last_at), at);
    } else {
      entries.set(key, {
        key,
        canonical_tool: String(row.canonical_tool),
        total: 1,
        first_id: id,
        first_at: at,
        last_at: at,
      });
    }
  }
  return [...entries.values()].sort((a, b) => (String(a.key) < String(b.key) ? -1 : 1));
}

function actualRollup(rows: Record<string, unknown>[], labelsText: (value: unknown) => string) {
  return rows
    .map((row) => ({
      key: [row.day, row.session_id, row.agent, row.tool, row.signature, row.source, row.pattern, row.host]
        .concat([labelsText(row.labels)])
        .join("\u0000"),
      canonical_tool: String(row.canonical_tool),
      total: Number(row.total),
      first_id: Number(row.first_id),
      first_at: Number(row.first_at),
      last_at: Number(row.last_at),
    }))
    .sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** back-fill, appends, an update of a keyed column, a prune: the rollup equals the count after each */
async function exercise(options: {
  insertBefore: (rows: DenialRecord[]) => Promise<void>;
  openStore: () => Promise<Store<unknown>>;
  query: (sql: string, params?: (string | number)[]) => Promise<Record<string, unknown>[]>;
  labelsText: (value: unknown) => string;
}) {
  const { query, labelsText } = options;
  const check = async (when: string) => {
    const denials = await query("SELECT * FROM denials");
    expect(denials.length, when).toBeGreaterThan(0);
    expect(actualRollup(await query(ROLLUP), labelsText), when).toEqual(expectedRollup(denials, labelsText));
  };
  await options.insertBefore(records(0, 40));
  const store = await options.openStore();
  try {
    await check("after the back-fill");
    await store.denials.append(records(40, 40));
    await check("after appends");
    await query("UPDATE denials SET host = 'gemini-cli', source = 'user' WHERE id % 3 = 0");
    await check("after an update of keyed columns");
    const cut = START + DAY + DAY / 2;
    await store.denials.prune(cut);
    expect((await query("SELECT min(at) AS at FROM denials"))[0]!.at).not.toBeNull();
    await check("after a prune within a day");
  } finally {
    await store.close();
  }
}

describe("SQLite migration 0008 on a 0007 database", () => {
  it("back-fills the daily calls and keeps them exact through appends, updates and prunes", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-migration-"));
    roots.push(root);
    const filename = join(root, "toolgate.db");
    const raw = openBetterSqlite3(filename, { busyTimeoutMs: 1_000 });
    try {
      await exercise({
        insertBefore: async (rows) => {
          prepareSqliteDatabase(raw, sqliteMigrations.slice(0, 7));
          for (const record of rows) raw.prepare(insertSql(() => "?")).run(...denialRowValues(record));
        },
        openStore: () => createSqliteStore({ filename }),
        query: async (sql, params = []) => {
          const statement = raw.prepare(sql);
          if (/^\s*SELECT/i.test(sql)) return statement.all(...params);
          statement.run(...params);
          return [];
        },
        labelsText: (value) => String(value),
      });
    } finally {
      raw.close();
    }
  });
});

describePostgres("Postgres migration 0008 on a 0007 database", (database) => {
  it("back-fills the daily calls and keeps them exact through appends, updates and prunes", async () => {
    const schema = database.newSchema();
    const pool = new pg.Pool({ connectionString: database.url(), max: 1, options: `-c search_path=${schema}` });
    try {
      await exercise({
        insertBefore: async (rows) => {
          await migratePostgres({ pool, location: "test", schema, migrations: postgresMigrations.slice(0, 7) });
          for (const record of rows)
            await pool.query(
              insertSql((index) => `$${index}`),
              denialRowValues(record),
            );
        },
        openStore: () => database.createStore({ schema }),
        query: async (sql, params = []) => (await pool.query(sql, params)).rows,
        labelsText: (value) => JSON.stringify(value),
      });
    } finally {
      await pool.end();
    }
  });
});
