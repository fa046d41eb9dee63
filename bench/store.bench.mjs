// Store throughput and report latency, through toolgate and through the raw driver, in one run.
// Usage: npm run bench -- store   (Postgres parts run when TOOLGATE_TEST_DATABASE_URL is set)
//        STORE_BENCH_ROWS=1000000 sets the report table size (default 1,000,000).
//        BENCH_SHORT=1: the short mode the test suite runs (2,000 rows written, 5,000 in the report table, 1 round).
// Both sides of each write comparison do the same work: the same rows in the same batches into the same schema,
// replays skipped on the record identity (migration 0003: (session_id, seq, at, tool_use_id)), and the daily
// rollups (denial_daily, denial_daily_sessions) kept in the same transaction, as the store does.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CANONICAL_TOOL_COLUMN, DAY_COLUMN, DENIAL_COLUMNS, denialRowValues } from "../dist/store/denial-row.js";
import { createPostgresStore } from "../dist/store/postgres/index.js";
import { createSqliteStore } from "../dist/store/sqlite/index.js";
import { goal } from "./support/goals.mjs";
import { size, sizeFrom } from "./support/short.mjs";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
const pg = require("pg");

const WRITE_ROWS = size(100_000, 2_000);
const BATCH = 500;
const ROUNDS = size(3, 1);
const TIMED_RUNS = size(5, 1);
const REPORT_ROWS = sizeFrom("STORE_BENCH_ROWS", 1_000_000, 5_000);
const postgresUrl = process.env.TOOLGATE_TEST_DATABASE_URL;
const now = Date.now();
const day = 86_400_000;
const tools = [
  "Bash",
  "Read",
  "Write",
  "Edit",
  "WebFetch",
  "Grep",
  "Glob",
  "Task",
  "mcp__github__create_issue",
  "mcp__slack__post",
];

// Realistic shape: denials cluster in sessions (200 each, 10 s apart, sessions spread evenly over 30 days), and a
// session repeats ~10 signatures out of a pool of 2,000 (agents retry the same few calls).
const PER_SESSION = 200;
function makeRecords(count, { seed = 0, totalRows = count } = {}) {
  const sessionsTotal = Math.max(1, Math.ceil(totalRows / PER_SESSION));
  const records = new Array(count);
  for (let index = 0; index < count; index++) {
    const n = index + seed;
    const session = Math.floor(n / PER_SESSION);
    const signatureIndex = (session * 37 + (n % 10) * 101) % 2000;
    const tool = tools[signatureIndex % tools.length];
    const command = `rm -rf build/${signatureIndex} && echo done`;
    const at = now - 30 * day + Math.floor((session * 30 * day) / sessionsTotal) + (n % PER_SESSION) * 10_000;
    records[index] = {
      seq: (n % PER_SESSION) + 1,
      sessionId: `session-${session}`,
      turn: 1 + Math.floor((n % PER_SESSION) / 20),
      tool,
      toolUseId: `toolu_${n}`,
      source: n % 3 === 0 ? "user" : "rule",
      reason: "Denied by rule Bash(rm *)",
      rule: "Bash(rm *)",
      signature: `sig-${tool}-${signatureIndex}`,
      pattern: "rm",
      inputSummary: command,
      input: { command, description: "clean the build directory", timeout: 120000 },
      at,
      timestamp: new Date(at).toISOString(),
      host: "claude-code",
      labels: { workflow: "ci", repository: "acme/app" },
    };
  }
  return records;
}

function rate(rows, ms) {
  return Math.round(rows / (ms / 1000));
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = [];
function report(line) {
  results.push(line);
  console.log(line);
}
const TOOL_COLUMN = DENIAL_COLUMNS.indexOf("tool");
const SESSION_COLUMN = DENIAL_COLUMNS.indexOf("session_id");
const SIGNATURE_COLUMN = DENIAL_COLUMNS.indexOf("signature");
/** the daily rollups of one batch's inserted rows, as the store keeps them: per (day, tool, key) a count and the first id */
function tally(map, row, keyColumn, id) {
  const key = `${row[DAY_COLUMN]}\u0000${row[TOOL_COLUMN]}\u0000${row[keyColumn]}`;
  const entry = map.get(key);
  if (entry === undefined)
    map.set(key, {
      day: row[DAY_COLUMN],
      tool: row[TOOL_COLUMN],
      key: row[keyColumn],
      total: 1,
      firstId: id,
      canonical: row[CANONICAL_TOOL_COLUMN],
    });
  else {
    entry.total += 1;
    entry.firstId = Math.min(entry.firstId, id);
  }
}
/** both sides must have stored every row once and counted it once in each rollup */
function checkStored(side, [rows, daily, sessions]) {
  if (Number(rows) !== WRITE_ROWS || Number(daily) !== WRITE_ROWS || Number(sessions) !== WRITE_ROWS)
    throw new Error(
      `${side} stored ${rows} rows, ${daily} in denial_daily, ${sessions} in denial_daily_sessions; expected ${WRITE_ROWS} each`,
    );
}
const COUNTS = (schema = "") =>
  `SELECT (SELECT count(*) FROM ${schema}denials) AS rows, (SELECT sum(total) FROM ${schema}denial_daily) AS daily, (SELECT sum(total) FROM ${schema}denial_daily_sessions) AS sessions`;

// ---------------------------------------------------------------- SQLite writes
{
  const directory = mkdtempSync(join(tmpdir(), "toolgate-bench-"));
  const records = makeRecords(WRITE_ROWS);
  const runs = { toolgate: [], raw: [] };
  for (let round = 0; round < ROUNDS; round++) {
    // toolgate: DenialStore.append in batches (one transaction each)
    const store = await createSqliteStore({ filename: join(directory, `toolgate-${round}.db`) });
    let started = performance.now();
    for (let index = 0; index < records.length; index += BATCH)
      await store.denials.append(records.slice(index, index + BATCH));
    runs.toolgate.push(performance.now() - started);
    await store.close();
    // raw better-sqlite3: the same rows into the same schema, same batch size, prepared statements, one immediate
    // transaction per batch that skips replays on the record identity and keeps the two daily rollups
    const schemaOnly = await createSqliteStore({ filename: join(directory, `raw-${round}.db`) });
    await schemaOnly.close();
    const db = new Database(join(directory, `raw-${round}.db`));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    const insert = db.prepare(
      `INSERT INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map(() => "?").join(", ")}) ON CONFLICT DO NOTHING`,
    );
    const upsertDaily = db.prepare(
      `INSERT INTO denial_daily (day, tool, signature, total, first_id, canonical_tool) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (day, tool, signature) DO UPDATE SET total = total + excluded.total, first_id = min(first_id, excluded.first_id)`,
    );
    const upsertSessions = db.prepare(
      `INSERT INTO denial_daily_sessions (day, tool, session_id, total, canonical_tool) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (day, tool, session_id) DO UPDATE SET total = total + excluded.total`,
    );
    const insertMany = db.transaction((rows) => {
      const daily = new Map();
      const sessions = new Map();
      for (const row of rows) {
        const result = insert.run(...row);
        if (result.changes === 0) continue;
        const id = Number(result.lastInsertRowid);
        tally(daily, row, SIGNATURE_COLUMN, id);
        tally(sessions, row, SESSION_COLUMN, id);
      }
      for (const e of daily.values()) upsertDaily.run(e.day, e.tool, e.key, e.total, e.firstId, e.canonical);
      for (const e of sessions.values()) upsertSessions.run(e.day, e.tool, e.key, e.total, e.canonical);
    });
    started = performance.now();
    for (let index = 0; index < records.length; index += BATCH)
      insertMany.immediate(records.slice(index, index + BATCH).map(denialRowValues));
    runs.raw.push(performance.now() - started);
    checkStored("raw better-sqlite3", Object.values(db.prepare(COUNTS()).get()));
    db.close();
    const check = new Database(join(directory, `toolgate-${round}.db`), { readonly: true });
    checkStored("toolgate (SQLite)", Object.values(check.prepare(COUNTS()).get()));
    check.close();
  }
  const toolgateRate = rate(WRITE_ROWS, median(runs.toolgate));
  const rawRate = rate(WRITE_ROWS, median(runs.raw));
  report(
    `sqlite writes (${WRITE_ROWS} rows, batches of ${BATCH}, median of ${ROUNDS}): toolgate ${toolgateRate} rows/s, raw better-sqlite3 ${rawRate} rows/s, ratio ${(toolgateRate / rawRate).toFixed(2)}`,
  );
  goal({
    goal: "SQLite ingest >= 0.8 of raw better-sqlite3",
    measured: `${toolgateRate} vs ${rawRate} rows/s (${(toolgateRate / rawRate).toFixed(2)})`,
    met: toolgateRate / rawRate >= 0.8,
    command: "bench/store.bench.mjs",
  });
  rmSync(directory, { recursive: true, force: true });
}

// ---------------------------------------------------------------- SQLite report on REPORT_ROWS rows
async function fill(store, count) {
  const chunk = 50_000;
  for (let offset = 0; offset < count; offset += chunk) {
    const records = makeRecords(Math.min(chunk, count - offset), { seed: offset, totalRows: count });
    for (let index = 0; index < records.length; index += 5_000)
      await store.denials.append(records.slice(index, index + 5_000));
  }
  const events = [];
  for (let index = 0; index < 2_000; index++)
    events.push({
      kind: index % 4 === 0 ? "run.aborted" : "loop.detected",
      sessionId: `session-${(index * 13) % Math.ceil(REPORT_ROWS / PER_SESSION)}`,
      turn: 1,
      at: now - ((index * 7_777_777) % (30 * day)),
      tool: "Bash",
      detail: {},
    });
  await store.denials.appendEvents(events);
}

async function timeReports(store, label) {
  const queries = [
    ["7d", { since: now - 7 * day }],
    ["30d", { since: now - 30 * day }],
    ["7d --tool Bash", { since: now - 7 * day, tool: "Bash" }],
    ["7d --session", { since: now - 7 * day, sessionId: `session-${Math.ceil(REPORT_ROWS / PER_SESSION) - 10}` }],
  ];
  for (const [name, query] of queries) {
    await store.denials.report(query); // warm
    const times = [];
    for (let run = 0; run < TIMED_RUNS; run++) {
      const started = performance.now();
      await store.denials.report(query);
      times.push(performance.now() - started);
    }
    report(`${label} report ${name} on ${REPORT_ROWS} rows: median ${median(times).toFixed(1)} ms`);
  }
}

{
  const directory = mkdtempSync(join(tmpdir(), "toolgate-bench-"));
  const store = await createSqliteStore({ filename: join(directory, "report.db") });
  const started = performance.now();
  await fill(store, REPORT_ROWS);
  console.log(`(filled ${REPORT_ROWS} SQLite rows in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  await timeReports(store, "sqlite");
  await store.close();
  // The whole command, as a user runs it: process start, config, store open, report, text output.
  const main = join(dirname(fileURLToPath(import.meta.url)), "../dist/cli/main.js");
  const times = [];
  for (let run = 0; run < TIMED_RUNS; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [main, "report"], {
      env: { ...process.env, TOOLGATE_DB: join(directory, "report.db"), TOOLGATE_DATABASE_URL: "" },
      encoding: "utf8",
    });
    if (result.status !== 0) throw new Error(result.stderr);
    times.push(performance.now() - started);
  }
  report(
    `sqlite "toolgate report" (whole CLI process, default --since 7d) on ${REPORT_ROWS} rows: median ${median(times).toFixed(0)} ms`,
  );
  rmSync(directory, { recursive: true, force: true });
}

// ---------------------------------------------------------------- Postgres
if (!postgresUrl) {
  console.log("postgres: skipped (TOOLGATE_TEST_DATABASE_URL is not set)");
  goal({
    goal: "Postgres ingest >= 0.8 of raw pg",
    measured: "not measured: TOOLGATE_TEST_DATABASE_URL is not set",
    met: false,
    command: "bench/store.bench.mjs",
  });
} else {
  const schema = `toolgate_bench_${process.pid}`;
  const records = makeRecords(WRITE_ROWS);
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  try {
    const runs = { toolgate: [], raw: [] };
    for (let round = 0; round < ROUNDS; round++) {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      const store = await createPostgresStore({ connectionString: postgresUrl, schema });
      let started = performance.now();
      for (let index = 0; index < records.length; index += BATCH)
        await store.denials.append(records.slice(index, index + BATCH));
      runs.toolgate.push(performance.now() - started);
      await store.close();
      checkStored("toolgate (Postgres)", Object.values((await admin.query(COUNTS(`${schema}.`))).rows[0]));
      // raw pg: the same rows, same batch size, into the same (emptied) tables with one hand-written statement per
      // batch: a multi-row INSERT that skips replays on the record identity (the store's unique index, migration
      // 0003), then the two daily rollups of what was inserted, as the store's own statement does
      await admin.query(
        `TRUNCATE ${schema}.denials, ${schema}.denial_daily, ${schema}.denial_daily_sessions, ${schema}.denial_daily_sources`,
      );
      // the schema on the search path, as the store's own connections have it (the rollup trigger of migration 0004
      // names its table unqualified)
      const client = new pg.Client({ connectionString: postgresUrl, options: `-c search_path=${schema}` });
      await client.connect();
      const columns = DENIAL_COLUMNS.length;
      started = performance.now();
      for (let index = 0; index < records.length; index += BATCH) {
        const rows = records.slice(index, index + BATCH).map(denialRowValues);
        const values = rows.map(
          (_, row) => `(${DENIAL_COLUMNS.map((__, column) => `$${row * columns + column + 1}`).join(", ")})`,
        );
        await client.query(
          `WITH inserted AS (
             INSERT INTO ${schema}.denials (${DENIAL_COLUMNS.join(", ")}) VALUES ${values.join(", ")}
             ON CONFLICT (md5(session_id), seq, at, md5(tool_use_id)) DO NOTHING
             RETURNING id, day, tool, signature, session_id, canonical_tool
           ), daily AS (
             INSERT INTO ${schema}.denial_daily (day, tool, signature, total, first_id, canonical_tool)
             SELECT day, tool, signature, count(*), min(id), min(canonical_tool) FROM inserted GROUP BY day, tool, signature
             ON CONFLICT (day, tool, signature) DO UPDATE
               SET total = denial_daily.total + excluded.total, first_id = LEAST(denial_daily.first_id, excluded.first_id)
           )
           INSERT INTO ${schema}.denial_daily_sessions (day, tool, session_id, total, canonical_tool)
           SELECT day, tool, session_id, count(*), min(canonical_tool) FROM inserted GROUP BY day, tool, session_id
           ON CONFLICT (day, tool, session_id) DO UPDATE SET total = denial_daily_sessions.total + excluded.total`,
          rows.flat(),
        );
      }
      runs.raw.push(performance.now() - started);
      await client.end();
      checkStored("raw pg", Object.values((await admin.query(COUNTS(`${schema}.`))).rows[0]));
    }
    const toolgateRate = rate(WRITE_ROWS, median(runs.toolgate));
    const rawRate = rate(WRITE_ROWS, median(runs.raw));
    report(
      `postgres writes (${WRITE_ROWS} rows, batches of ${BATCH}, median of ${ROUNDS}): toolgate ${toolgateRate} rows/s, raw pg multi-row INSERT ${rawRate} rows/s, ratio ${(toolgateRate / rawRate).toFixed(2)}`,
    );
    goal({
      goal: "Postgres ingest >= 0.8 of raw pg",
      measured: `${toolgateRate} vs ${rawRate} rows/s (${(toolgateRate / rawRate).toFixed(2)})`,
      met: toolgateRate / rawRate >= 0.8,
      command: "bench/store.bench.mjs",
    });
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    const store = await createPostgresStore({ connectionString: postgresUrl, schema });
    const started = performance.now();
    await fill(store, REPORT_ROWS);
    await admin.query(`ANALYZE ${schema}.denials`);
    console.log(`(filled ${REPORT_ROWS} Postgres rows in ${((performance.now() - started) / 1000).toFixed(1)} s)`);
    await timeReports(store, "postgres");
    await store.close();
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
}
