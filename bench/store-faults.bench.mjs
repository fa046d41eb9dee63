// How long the store layer takes to give its answer under each fault it covers (issue 12, classes 1 and 4): the
// worst of 5 tries per fault, against the built dist/. A state-store failure is what the guard turns into its
// fail-closed answer; a drain failure leaves the records in the spool. Goal: every gating answer under 2 s.
// Usage: npm run build && node bench/store-faults.bench.mjs
//   (TOOLGATE_TEST_DATABASE_URL=postgres://… adds the Postgres row-lock case; root adds the read-only mount case;
//   BENCH_SHORT=1: the short mode the test suite runs, one try per fault)
import { execFileSync, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { size } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const load = (path) => import(pathToFileURL(join(here, "..", "dist", path)).href);
const { createFileSessionStateStore } = await load("store/file/file-session-state-store.js");
const { createLocalFirstStore } = await load("store/file/local-first-store.js");
const { openStore } = await load("store/open-store.js");
const tries = size(5, 1);
const root = mkdtempSync(join(tmpdir(), "toolgate-store-faults-"));
const rows = [];
let counter = 0;
const fresh = () => {
  const directory = join(root, `case-${counter++}`);
  mkdirSync(directory, { recursive: true });
  return directory;
};
/** the worst time of `tries` runs of `run` (which sets up its fault, then returns the measured operation) */
async function measure(fault, expected, setup) {
  let worst = 0;
  let outcome = "";
  for (let attempt = 0; attempt < tries; attempt++) {
    const { operation, cleanup } = await setup();
    const started = performance.now();
    try {
      outcome = `ok ${JSON.stringify(await operation())}`;
    } catch (error) {
      outcome = `${error.code ?? error.name}${error.data?.reason ? ` (${error.data.reason})` : ""}`;
    }
    worst = Math.max(worst, performance.now() - started);
    await cleanup?.();
  }
  rows.push({ fault, expected, outcome, worst });
}
const increment = (state) => ({ count: (state?.count ?? 0) + 1 });
const hookStore = (env) => {
  const directory = fresh();
  return createLocalFirstStore({
    stateDirectory: join(directory, "state"),
    spoolDirectory: join(directory, "spool"),
    open: async () => (await openStore({ env })).denials,
    timeoutMs: 1_500,
  });
};
const record = {
  seq: 1,
  sessionId: "s",
  turn: 0,
  tool: "Bash",
  toolUseId: "t",
  source: "rule",
  reason: "r",
  signature: "s",
  pattern: "p",
  inputSummary: "i",
  input: {},
  at: 1,
  timestamp: "1970-01-01T00:00:00.001Z",
};

try {
  await measure("state: lock held by a live process", "STORE_UNAVAILABLE after 1.5 s", async () => {
    const directory = fresh();
    writeFileSync(
      join(directory, "s-s.lock"),
      JSON.stringify({ pid: process.pid, host: (await import("node:os")).hostname(), at: Date.now(), token: "held" }),
    );
    return { operation: () => createFileSessionStateStore({ directory }).update("s", increment) };
  });
  await measure("state: holder killed while holding the lock", "taken over at once", async () => {
    const directory = fresh();
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"]);
    writeFileSync(
      join(directory, "s-s.lock"),
      JSON.stringify({ pid: child.pid, host: (await import("node:os")).hostname(), at: Date.now(), token: "dead" }),
    );
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    return { operation: async () => (await createFileSessionStateStore({ directory }).update("s", increment)).version };
  });
  await measure("state: file truncated mid-JSON", "STORE_CORRUPT", async () => {
    const directory = fresh();
    writeFileSync(join(directory, "s-s.json"), '{"sessionId":"s","version":3,"state":{"cou');
    return { operation: () => createFileSessionStateStore({ directory }).update("s", increment) };
  });
  if (process.getuid?.() === 0) {
    await measure("state: read-only directory (bind mount)", "STORE_UNAVAILABLE", async () => {
      const directory = fresh();
      await createFileSessionStateStore({ directory }).update("s", increment);
      execFileSync("mount", ["--bind", directory, directory]);
      execFileSync("mount", ["-o", "remount,ro,bind", directory]);
      return {
        operation: () => createFileSessionStateStore({ directory }).update("s", increment),
        cleanup: () => execFileSync("umount", [directory]),
      };
    });
  }
  await measure("records: append while TOOLGATE_DB is a directory", "spooled", async () => {
    const database = join(fresh(), "db");
    mkdirSync(database);
    const store = hookStore({ TOOLGATE_DB: database });
    return { operation: () => store.denials.append([record]) };
  });
  await measure("drain: TOOLGATE_DB is a corrupt file", "records stay spooled", async () => {
    const database = join(fresh(), "toolgate.db");
    writeFileSync(database, "not a database ".repeat(100));
    const store = hookStore({ TOOLGATE_DB: database });
    await store.denials.append([record]);
    return { operation: () => store.denials.drain() };
  });
  const closedPort = await new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
  await measure("drain: Postgres port closed", "records stay spooled", async () => {
    const store = hookStore({ TOOLGATE_DATABASE_URL: `postgres://postgres@127.0.0.1:${closedPort}/test` });
    await store.denials.append([record]);
    return { operation: () => store.denials.drain() };
  });
  const sockets = [];
  const silent = createServer((socket) => void sockets.push(socket));
  const silentPort = await new Promise((resolve) =>
    silent.listen(0, "127.0.0.1", () => resolve(silent.address().port)),
  );
  await measure("drain: Postgres accepts and never answers", "records stay spooled", async () => {
    const store = hookStore({ TOOLGATE_DATABASE_URL: `postgres://postgres@127.0.0.1:${silentPort}/test` });
    await store.denials.append([record]);
    return { operation: () => store.denials.drain() };
  });
  for (const socket of sockets) socket.destroy();
  silent.close();
  await measure("SQLite state store: database locked by another process", "SQLITE_BUSY after ~1.55 s", async () => {
    const filename = join(fresh(), "toolgate.db");
    const { createSqliteStore } = await load("store/sqlite/sqlite-store.js");
    (await createSqliteStore({ filename })).close();
    const locker = spawn(process.execPath, [
      "-e",
      `const D = require(${JSON.stringify(join(here, "..", "node_modules", "better-sqlite3"))}); const d = new D(${JSON.stringify(filename)}); d.exec("BEGIN EXCLUSIVE"); console.log("locked"); setInterval(() => {}, 1000);`,
    ]);
    await new Promise((resolve) => locker.stdout.once("data", resolve));
    const store = await createSqliteStore({ filename });
    return {
      operation: () => store.sessions.update("s", increment),
      cleanup: async () => {
        locker.kill("SIGKILL");
        await store.close();
      },
    };
  });
  const url = process.env.TOOLGATE_TEST_DATABASE_URL;
  if (url) {
    const pg = (await import("pg")).default;
    const { createPostgresStore } = await load("store/postgres/postgres-store.js");
    const schema = `toolgate_bench_faults_${process.pid}`;
    const store = await createPostgresStore({ connectionString: url, schema });
    await store.sessions.update("s", increment);
    await measure("Postgres state store: session row locked by another transaction", "55P03 after 1.5 s", async () => {
      const holder = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
      await holder.connect();
      await holder.query("BEGIN");
      await holder.query("SELECT * FROM session_state WHERE session_id = 's' FOR UPDATE");
      return { operation: () => store.sessions.update("s", increment), cleanup: () => holder.end() };
    });
    await store.close();
    const cleanup = new pg.Client({ connectionString: url });
    await cleanup.connect();
    await cleanup.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await cleanup.end();
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`worst of ${tries} per fault\n`);
console.log("| fault | expected | outcome | worst ms |\n|---|---|---|---|");
for (const row of rows) console.log(`| ${row.fault} | ${row.expected} | ${row.outcome} | ${row.worst.toFixed(0)} |`);
