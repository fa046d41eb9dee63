// Every dashboard API answer on a store of 1,000,000 denials, SQLite and (with TOOLGATE_TEST_DATABASE_URL) Postgres,
// with no filter and with each filter and their combinations (issue 26: every view and filter in <= 1 s).
// Usage: npm run build && node bench/dashboard-views.bench.mjs
//        DASHBOARD_VIEWS_ROWS sets the table size (1,000,000), DASHBOARD_VIEWS_RUNS the timed runs per request (3).
//        DASHBOARD_VIEWS_DB=<file> fills that SQLite file once and reuses it later (not removed); DASHBOARD_VIEWS_SCHEMA
//        does the same with a Postgres schema (not dropped). A reused store is opened by this build, so its new
//        migrations run first (their time is printed).
//        BENCH_SHORT=1: the short mode the test suite runs (3,000 denials, 1 run).
// What is timed, per request: the dashboard's own answer (`answerApi`, what `toolgate dashboard` serves for
// /api/<view>, JSON-encoded) in-process over the store's read-only SQL reader, after one untimed warm-up; the median
// of the runs. Live is one catch-up poll of the feed (`denialsAfter` over the newest 10,000 ids, with the filters).

import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { answerApi } from "../dist/dashboard/server/dashboard-api.js";
import { parseDashboardFilters } from "../dist/dashboard/server/dashboard-filters.js";
import { denialHighWaterMark, denialsAfter } from "../dist/dashboard/server/live-query.js";
import { openSqlReader } from "../dist/dashboard/server/open-sql-reader.js";
import { createPostgresStore } from "../dist/store/postgres/index.js";
import { createSqliteStore } from "../dist/store/sqlite/index.js";
import { sizeFrom } from "./support/short.mjs";

const ROWS = sizeFrom("DASHBOARD_VIEWS_ROWS", 1_000_000, 3_000);
const RUNS = sizeFrom("DASHBOARD_VIEWS_RUNS", 3, 1);
const GOAL_MS = 1_000;
const postgresUrl = process.env.TOOLGATE_TEST_DATABASE_URL;

const DAY = 86_400_000;
// a fixed "now" at 12:00 UTC, so partial edge days exist and a reused store means the same windows
const NOW = Math.floor(Date.now() / DAY) * DAY + DAY / 2;
const tools = [
  "Bash",
  "Read",
  "Write",
  "Edit",
  "WebFetch",
  "Grep",
  "exec_command",
  "run_shell_command",
  "mcp__github__create_issue",
];
const sources = ["rule", "headless", "user", "headless", "sandbox", "rule", "hook", "headless"];
const hosts = ["claude-code", "codex", "opencode", "gemini-cli", "qwen-code", "copilot"];
const PER_SESSION = 50;
const sessionsTotal = Math.ceil(ROWS / PER_SESSION);

// Sessions of 50 denials, 20 s apart, spread evenly over the last 90 days; each retries ~8 of 3,000 calls, so
// sessions have loops (the same call denied 3+ times) and repeated patterns. 6 hosts, 40 repositories, 2 workflows.
function makeRecords(count, offset) {
  const records = new Array(count);
  for (let index = 0; index < count; index++) {
    const n = index + offset;
    const session = Math.floor(n / PER_SESSION);
    const position = n % PER_SESSION;
    const signatureIndex = (session * 37 + (position % 8) * 101) % 3000;
    const tool = tools[signatureIndex % tools.length];
    // a call keeps the source that refused it; from its third denial on toolgate refuses it itself (a loop verdict),
    // and every 23rd session ends aborted
    const source =
      session % 23 === 0 && position >= PER_SESSION - 4
        ? "aborted"
        : position >= 16
          ? "loop"
          : sources[(signatureIndex + session) % sources.length];
    const command = `rm -rf build/${signatureIndex} && echo done`;
    const at = NOW - 90 * DAY + Math.floor((session * 90 * DAY) / sessionsTotal) + position * 20_000;
    records[index] = {
      seq: position + 1,
      sessionId: `session-${session}`,
      ...(session % 17 === 0 ? { parentSessionId: `session-${session - 1}` } : {}),
      ...(position % 11 === 5 ? { agentId: `agent-${session % 3}` } : {}),
      turn: 1 + Math.floor(position / 10),
      tool,
      toolUseId: `toolu_${n}`,
      source,
      reason: source === "rule" ? "Denied by rule Bash(rm *)" : "requires approval",
      ...(source === "rule" ? { rule: "Bash(rm *)" } : {}),
      signature: `sig-${tool}-${signatureIndex}`,
      pattern: `p${signatureIndex % 60}`,
      inputSummary: command,
      input: { command },
      at,
      timestamp: new Date(at).toISOString(),
      host: hosts[session % hosts.length],
      labels: { workflow: session % 3 === 0 ? "ci" : "local", repo: `acme/app-${session % 40}` },
    };
  }
  return records;
}

async function fill(store) {
  for (let offset = 0; offset < ROWS; offset += 5_000)
    await store.denials.append(makeRecords(Math.min(5_000, ROWS - offset), offset));
  const events = [];
  const count = Math.max(20, Math.floor(ROWS / 200));
  for (let index = 0; index < count; index++) {
    const session = (index * 13) % sessionsTotal;
    const at = NOW - 90 * DAY + Math.floor((session * 90 * DAY) / sessionsTotal) + PER_SESSION * 20_000;
    const kind = ["loop.detected", "run.aborted", "session.summary", "loop.detected"][index % 4];
    events.push({
      kind,
      sessionId: `session-${session}`,
      turn: 1,
      at,
      tool: "Bash",
      detail:
        kind === "session.summary"
          ? { wastedCalls: 3 + (index % 7), wastedTokens: 1000 + index, toolCalls: 80 }
          : kind === "loop.detected"
            ? { kind: "identical", calls: 3 }
            : {},
    });
  }
  for (let start = 0; start < events.length; start += 1_000)
    await store.denials.appendEvents(events.slice(start, start + 1_000));
}

/** the filter sets every view is asked with: none, each filter, windows, and combinations */
const FILTERS = [
  ["none (30d)", ""],
  ["since=24h", "since=24h"],
  ["since=7d", "since=7d"],
  ["since=90d", "since=90d"],
  ["since=90d until=30d", `since=90d&until=${new Date(NOW - 30 * DAY).toISOString()}`],
  ["tool=shell", "tool=shell"],
  ["host=codex", "host=codex"],
  ["label=workflow:ci", "label=workflow:ci"],
  ["label=repo:acme/app-7", "label=repo:acme/app-7"],
  ["host+label", "host=codex&label=workflow:ci"],
  ["host+tool", "host=codex&tool=shell"],
  ["label+tool 7d", "label=repo:acme/app-7&tool=shell&since=7d"],
  ["host+label+tool 90d", "host=codex&label=workflow:ci&tool=shell&since=90d"],
];
const SESSION_SORTS = ["", "sort=denials", "sort=loops", "sort=wasted", "sort=tokens", "sort=host&dir=asc", "page=3"];

async function timeOne(run) {
  await run(); // warm-up, untimed
  const times = [];
  let answer;
  for (let index = 0; index < RUNS; index++) {
    const started = performance.now();
    answer = await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], answer };
}

/** times every view under every filter set on one open store; returns the rows of the table */
async function timeViews(engine, store, reader) {
  const data = { reader, denials: store.denials, defaultSince: "30d", redactText: (text) => text, now: () => NOW };
  const ask = (path, query) => async () =>
    JSON.stringify(await answerApi(data, { path, query: new URLSearchParams(query) }));
  const rows = [];
  const add = async (view, filter, run) => {
    try {
      const { ms, answer } = await timeOne(run);
      rows.push({ engine, view, filter, ms, size: answer.length });
    } catch (error) {
      // a request this build refuses (a sort it does not offer yet) is listed, not timed
      rows.push({ engine, view, filter, ms: Number.NaN, size: `refused: ${error.message}` });
    }
  };
  for (const [name, query] of FILTERS) {
    await add("overview", name, ask("/api/overview", query));
    await add("policy", name, ask("/api/policy", query));
    await add("sessions", name, ask("/api/sessions", query));
    const filters = parseDashboardFilters(new URLSearchParams(query), { now: NOW, defaultSince: "30d" });
    const { since: _since, until: _until, ...liveFilters } = filters;
    await add("live", name, async () => {
      const newest = await denialHighWaterMark(reader);
      const answer = await denialsAfter({
        reader,
        afterId: Math.max(0, newest - 10_000),
        upToId: newest,
        limit: 200,
        filters: liveFilters,
      });
      return JSON.stringify(answer);
    });
  }
  for (const sort of SESSION_SORTS.slice(1)) {
    await add("sessions", sort, ask("/api/sessions", sort));
    await add("sessions", `${sort} host+label`, ask("/api/sessions", `${sort}&host=codex&label=workflow:ci`));
  }
  for (const since of ["30d", "90d"]) await add("filters", `since=${since}`, ask("/api/filters", `since=${since}`));
  await add("session page", "largest session", ask("/api/session", `id=session-${Math.floor(sessionsTotal / 2)}`));
  return rows;
}

function printTable(title, rows) {
  console.log(`\n${title}`);
  console.log("| engine | view | filter | ms | answer bytes |");
  console.log("| --- | --- | --- | ---: | ---: |");
  for (const row of rows)
    console.log(`| ${row.engine} | ${row.view} | ${row.filter} | ${Math.round(row.ms)} | ${row.size} |`);
}

function summarize(engine, rows, migrateMs) {
  const timed = rows.filter((row) => !Number.isNaN(row.ms));
  const sorted = [...timed].sort((a, b) => b.ms - a.ms);
  printTable(`${engine}: every request (median of ${RUNS} after a warm-up), slowest first`, sorted);
  printTable(
    `${engine}: refused`,
    rows.filter((row) => Number.isNaN(row.ms)),
  );
  const over = timed.filter((row) => row.ms > GOAL_MS).length;
  const slowest = sorted[0];
  console.log(
    `\n${engine} dashboard views on ${ROWS.toLocaleString("en-US")} denials: ${timed.length} requests, slowest ${Math.round(slowest.ms)} ms (${slowest.view}, ${slowest.filter}), ${over} over ${GOAL_MS} ms; open + migrate ${Math.round(migrateMs)} ms; load average ${loadavg()[0].toFixed(1)} on ${availableParallelism()} cores`,
  );
}

async function sqlite() {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-dashboard-views-"));
  const filename = process.env.DASHBOARD_VIEWS_DB || join(directory, "toolgate.db");
  let store;
  let reader;
  try {
    const opened = performance.now();
    store = await createSqliteStore({ filename });
    const migrateMs = performance.now() - opened;
    const [{ n }] = await (async () => {
      const probe = await openSqlReader({ engine: "sqlite", filename });
      try {
        return await probe.all("SELECT count(*) AS n FROM denials", []);
      } finally {
        await probe.close();
      }
    })();
    if (Number(n) === 0) {
      const started = performance.now();
      await fill(store);
      console.log(
        `sqlite: filled ${ROWS.toLocaleString("en-US")} denials in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    } else console.log(`sqlite: reused ${Number(n).toLocaleString("en-US")} denials in ${filename}`);
    reader = await openSqlReader({ engine: "sqlite", filename });
    summarize("sqlite", await timeViews("sqlite", store, reader), migrateMs);
  } finally {
    await reader?.close();
    await store?.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

async function postgres() {
  const kept = process.env.DASHBOARD_VIEWS_SCHEMA;
  const schema = kept || `toolgate_views_bench_${process.pid}`;
  const admin = new pg.Pool({ connectionString: postgresUrl, max: 1 });
  let store;
  let reader;
  try {
    const opened = performance.now();
    store = await createPostgresStore({ connectionString: postgresUrl, schema });
    const migrateMs = performance.now() - opened;
    const [{ n }] = (await admin.query(`SELECT count(*) AS n FROM "${schema}".denials`)).rows;
    if (Number(n) === 0) {
      const started = performance.now();
      await fill(store);
      await admin.query(`VACUUM ANALYZE "${schema}".denials`);
      console.log(
        `postgres: filled ${ROWS.toLocaleString("en-US")} denials in ${((performance.now() - started) / 1000).toFixed(0)} s`,
      );
    } else console.log(`postgres: reused ${Number(n).toLocaleString("en-US")} denials in schema ${schema}`);
    reader = await openSqlReader({ engine: "postgres", connectionString: postgresUrl, schema });
    summarize("postgres", await timeViews("postgres", store, reader), migrateMs);
  } finally {
    await reader?.close();
    await store?.close();
    if (!kept) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  }
}

if (process.env.DASHBOARD_VIEWS_ENGINES !== "postgres") await sqlite();
if (!postgresUrl) console.log("postgres: skipped (TOOLGATE_TEST_DATABASE_URL is not set)");
else if (process.env.DASHBOARD_VIEWS_ENGINES !== "sqlite") await postgres();
