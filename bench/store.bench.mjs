// Store throughput and report latency, through toolgate and through the raw driver, in one run.
// Usage: npm run bench -- store   (Postgres parts run when TOOLGATE_TEST_DATABASE_URL is set)
//        STORE_BENCH_ROWS=1000000 sets the report table size (default 1,000,000).

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { DENIAL_COLUMNS, denialRowValues } from "../dist/store/denial-row.js";
import { createPostgresStore } from "../dist/store/postgres/index.js";
import { createSqliteStore } from "../dist/store/sqlite/index.js";

const require = createRequire(import.meta.url);
const Database = require("better-sqlite3");
const pg = require("pg");

const WRITE_ROWS = 100_000;
const BATCH = 500;
const REPORT_ROWS = Number(process.env.STORE_BENCH_ROWS ?? 1_000_000);
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

// ---------------------------------------------------------------- SQLite writes
{
  const directory = mkdtempSync(join(tmpdir(), "toolgate-bench-"));
  const records = makeRecords(WRITE_ROWS);
  const runs = { toolgate: [], raw: [] };
  for (let round = 0; round < 3; round++) {
    // toolgate: DenialStore.append in batches (one transaction each)
    const store = await createSqliteStore({ filename: join(directory, `toolgate-${round}.db`) });
    let started = performance.now();
    for (let index = 0; index < records.length; index += BATCH)
      await store.denials.append(records.slice(index, index + BATCH));
    runs.toolgate.push(performance.now() - started);
    await store.close();
    // raw better-sqlite3: the same rows into the same schema, same batch size, prepared statement, one transaction per batch
    const schemaOnly = await createSqliteStore({ filename: join(directory, `raw-${round}.db`) });
    await schemaOnly.close();
    const db = new Database(join(directory, `raw-${round}.db`));
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    const insert = db.prepare(
      `INSERT OR IGNORE INTO denials (${DENIAL_COLUMNS.join(", ")}) VALUES (${DENIAL_COLUMNS.map(() => "?").join(", ")})`,
    );
    const insertMany = db.transaction((rows) => {
      for (const row of rows) insert.run(...row);
    });
    started = performance.now();
    for (let index = 0; index < records.length; index += BATCH)
      insertMany(records.slice(index, index + BATCH).map(denialRowValues));
    runs.raw.push(performance.now() - started);
    db.close();
  }
  const toolgateRate = rate(WRITE_ROWS, median(runs.toolgate));
  const rawRate = rate(WRITE_ROWS, median(runs.raw));
  report(
    `sqlite writes (${WRITE_ROWS} rows, batches of ${BATCH}, median of 3): toolgate ${toolgateRate} rows/s, raw better-sqlite3 ${rawRate} rows/s, ratio ${(toolgateRate / rawRate).toFixed(2)}`,
  );
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
    for (let run = 0; run < 5; run++) {
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
  for (let run = 0; run < 5; run++) {
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
} else {
  const schema = `toolgate_bench_${process.pid}`;
  const records = makeRecords(WRITE_ROWS);
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  try {
    const runs = { toolgate: [], raw: [] };
    for (let round = 0; round < 3; round++) {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      const store = await createPostgresStore({ connectionString: postgresUrl, schema });
      let started = performance.now();
      for (let index = 0; index < records.length; index += BATCH)
        await store.denials.append(records.slice(index, index + BATCH));
      runs.toolgate.push(performance.now() - started);
      await store.close();
      // raw pg: the same rows, same batch size, into the same (emptied) table with a hand-written multi-row INSERT
      await admin.query(`TRUNCATE ${schema}.denials`);
      const client = new pg.Client({ connectionString: postgresUrl });
      await client.connect();
      const columns = DENIAL_COLUMNS.length;
      started = performance.now();
      for (let index = 0; index < records.length; index += BATCH) {
        const rows = records.slice(index, index + BATCH).map(denialRowValues);
        const values = rows.map(
          (_, row) => `(${DENIAL_COLUMNS.map((__, column) => `$${row * columns + column + 1}`).join(", ")})`,
        );
        await client.query(
          `INSERT INTO ${schema}.denials (${DENIAL_COLUMNS.join(", ")}) VALUES ${values.join(", ")} ON CONFLICT (session_id, seq) DO NOTHING`,
          rows.flat(),
        );
      }
      runs.raw.push(performance.now() - started);
      await client.end();
    }
    const toolgateRate = rate(WRITE_ROWS, median(runs.toolgate));
    const rawRate = rate(WRITE_ROWS, median(runs.raw));
    report(
      `postgres writes (${WRITE_ROWS} rows, batches of ${BATCH}, median of 3): toolgate ${toolgateRate} rows/s, raw pg multi-row INSERT ${rawRate} rows/s, ratio ${(toolgateRate / rawRate).toFixed(2)}`,
    );
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
