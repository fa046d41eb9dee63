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
 * Migration 0009 (session summary): `denial_sessions`, `denial_session_calls` and `denial_session_patterns` are
 * back-filled from the rows a 0008 database holds, and the triggers keep them equal to a count of `denials` (done
 * here in JavaScript, row by row) through appends, updates of keyed columns (a row moved to another session too),
 * a delete, and a prune that cuts sessions in half (first and last times, hosts and labels recounted).
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

const SESSIONS = `SELECT session_id, denials, saved_calls, patterns, loop_tools, first_at, last_at, host_min, host_max,
  labels_min, labels_max, parent_session_id FROM denial_sessions`;
const CALLS = "SELECT session_id, agent, tool, signature, total FROM denial_session_calls";
const PATTERNS = "SELECT session_id, agent, tool, pattern, total FROM denial_session_patterns";

const byKey = (a: { key?: unknown }, b: { key?: unknown }) =>
  String(a.key) < String(b.key) ? -1 : String(a.key) > String(b.key) ? 1 : 0;

/** the three tables as they should be: `denials` counted in JavaScript */
function expected(rows: Record<string, unknown>[], labelsText: (value: unknown) => string) {
  const sessions = new Map<string, Record<string, string | number | null>>();
  const calls = new Map<string, number>();
  const patterns = new Map<string, number>();
  for (const row of rows) {
    const id = String(row.session_id);
    const agent = String(row.agent_id ?? "");
    const call = [id, agent, row.tool, row.signature].join("\u0000");
    calls.set(call, (calls.get(call) ?? 0) + 1);
    const pattern = [id, agent, row.tool, row.pattern].join("\u0000");
    patterns.set(pattern, (patterns.get(pattern) ?? 0) + 1);
    const host = String(row.host ?? "");
    const labels = row.labels == null ? "{}" : labelsText(row.labels);
    const at = Number(row.at);
    const saved = row.source === "loop" || row.source === "aborted" ? 1 : 0;
    const parent = row.parent_session_id == null ? null : String(row.parent_session_id);
    const known = sessions.get(id);
    if (known === undefined) {
      sessions.set(id, {
        key: id,
        denials: 1,
        saved_calls: saved,
        first_at: at,
        last_at: at,
        host_min: host,
        host_max: host,
        labels_min: labels,
        labels_max: labels,
        parent_session_id: parent,
      });
      continue;
    }
    known.denials = Number(known.denials) + 1;
    known.saved_calls = Number(known.saved_calls) + saved;
    known.first_at = Math.min(Number(known.first_at), at);
    known.last_at = Math.max(Number(known.last_at), at);
    if (host < String(known.host_min)) known.host_min = host;
    if (host > String(known.host_max)) known.host_max = host;
    if (labels < String(known.labels_min)) known.labels_min = labels;
    if (labels > String(known.labels_max)) known.labels_max = labels;
    if (parent !== null && (known.parent_session_id === null || parent > String(known.parent_session_id)))
      known.parent_session_id = parent;
  }
  for (const session of sessions.values()) {
    const prefix = `${session.key}\u0000`;
    session.patterns = [...patterns.keys()].filter((key) => key.startsWith(prefix)).length;
    const loopTools = new Set<string>();
    for (const [key, total] of calls) if (key.startsWith(prefix) && total >= 3) loopTools.add(key.split("\u0000")[2]!);
    session.loop_tools = loopTools.size;
  }
  return {
    sessions: [...sessions.values()].sort(byKey),
    calls: [...calls].map(([key, total]) => ({ key, total })).sort(byKey),
    patterns: [...patterns].map(([key, total]) => ({ key, total })).sort(byKey),
  };
}

async function actual(query: (sql: string) => Promise<Record<string, unknown>[]>) {
  const sessions = (await query(SESSIONS)).map((row) => ({
    key: String(row.session_id),
    denials: Number(row.denials),
    saved_calls: Number(row.saved_calls),
    first_at: Number(row.first_at),
    last_at: Number(row.last_at),
    host_min: String(row.host_min),
    host_max: String(row.host_max),
    // Postgres writes jsonb's text (`{"a": "b"}`): compared as JSON
    labels_min: JSON.stringify(JSON.parse(String(row.labels_min))),
    labels_max: JSON.stringify(JSON.parse(String(row.labels_max))),
    parent_session_id: row.parent_session_id == null ? null : String(row.parent_session_id),
    patterns: Number(row.patterns),
    loop_tools: Number(row.loop_tools),
  }));
  const keyed = (rows: Record<string, unknown>[], last: string) =>
    rows
      .map((row) => ({
        key: [row.session_id, row.agent, row.tool, row[last]].join("\u0000"),
        total: Number(row.total),
      }))
      .sort(byKey);
  return {
    sessions: sessions.sort(byKey),
    calls: keyed(await query(CALLS), "signature"),
    patterns: keyed(await query(PATTERNS), "pattern"),
  };
}

/** back-fill, appends, updates of keyed columns, a delete, a prune: the tables equal the count after each */
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
    const got = await actual(query);
    const want = expected(denials, labelsText);
    expect(got.calls, when).toEqual(want.calls);
    expect(got.patterns, when).toEqual(want.patterns);
    expect(got.sessions, when).toEqual(want.sessions);
  };
  await options.insertBefore(records(0, 40));
  const store = await options.openStore();
  try {
    await check("after the back-fill");
    // some sessions reach 3 denials of one call (a host loop) only now
    await store.denials.append(records(40, 40));
    await store.denials.append(
      records(80, 6).map((record) => ({ ...record, parentSessionId: "parent-9", sessionId: "s1", signature: "sig-0" })),
    );
    // a call that reaches exactly 3 denials, in a session of its own
    await store.denials.append(
      records(90, 3).map((record) => ({ ...record, sessionId: "s7", tool: "Bash", signature: "sig-7", pattern: "p7" })),
    );
    await check("after appends");
    expect((await query(SESSIONS)).some((row) => Number(row.loop_tools) > 0)).toBe(true);
    await query("UPDATE denials SET host = 'gemini-cli', source = 'user' WHERE id % 3 = 0");
    await check("after an update of keyed columns");
    await query("UPDATE denials SET session_id = 's9', pattern = 'moved' WHERE id % 5 = 1");
    await check("after rows moved to another session");
    await query("DELETE FROM denials WHERE session_id = 's1' AND signature = 'sig-0' AND id % 2 = 0");
    await check("after a delete that ends a loop");
    const cut = START + DAY + DAY / 2;
    await store.denials.prune(cut);
    expect((await query("SELECT min(at) AS at FROM denials"))[0]!.at).not.toBeNull();
    await check("after a prune within sessions");
    await query("DELETE FROM denials WHERE session_id = 's9'");
    await check("after a session's last denial is deleted");
    expect((await query(SESSIONS)).map((row) => row.session_id)).not.toContain("s9");
  } finally {
    await store.close();
  }
}
describe("SQLite migration 0009 on a 0008 database", () => {
  it("back-fills the session summary and keeps it exact through appends, updates, deletes and prunes", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-migration-"));
    roots.push(root);
    const filename = join(root, "toolgate.db");
    const raw = openBetterSqlite3(filename, { busyTimeoutMs: 1_000 });
    try {
      await exercise({
        insertBefore: async (rows) => {
          prepareSqliteDatabase(raw, sqliteMigrations.slice(0, 8));
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

describePostgres("Postgres migration 0009 on a 0008 database", (database) => {
  it("back-fills the session summary and keeps it exact through appends, updates, deletes and prunes", async () => {
    const schema = database.newSchema();
    const pool = new pg.Pool({ connectionString: database.url(), max: 1, options: `-c search_path=${schema}` });
    try {
      await exercise({
        insertBefore: async (rows) => {
          await migratePostgres({ pool, location: "test", schema, migrations: postgresMigrations.slice(0, 8) });
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
