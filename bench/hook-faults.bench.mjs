// The hook's gating answer under each store fault, end to end (issue 12 classes 1 and 4, issue 13 item 2): one
// `toolgate hook claude-code` process per event, as Claude Code runs it, through the bundled entry when the build
// made one (dist/hook/toolgate-hook.cjs, else dist/cli/main.js). For each fault: `tries` rule-denied PreToolUse
// events (a fresh session each time, so nothing escalates), the time from spawn to the answer on stdout and to the
// process's exit, worst and median. One non-gating PostToolUse per fault shows what a drain attempt costs there.
// Usage: npm run build && node bench/hook-faults.bench.mjs   (TOOLGATE_TEST_DATABASE_URL=postgres://… adds the
// healthy Postgres row; HOOK_FAULT_TRIES=n, default 10; BENCH_SHORT=1: the short mode the test suite runs, one try)
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { hostname, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { sizeFrom } from "./support/short.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const bundled = join(dist, "hook", "toolgate-hook.cjs");
const entry = existsSync(bundled) ? bundled : join(dist, "cli", "main.js");
const tries = sizeFrom("HOOK_FAULT_TRIES", 10, 1);
const root = mkdtempSync(join(tmpdir(), "toolgate-hook-faults-"));
const sockets = [];
const silent = createServer((socket) => sockets.push(socket));
await new Promise((resolve) => silent.listen(0, "127.0.0.1", resolve));
const closedPort = await new Promise((resolve) => {
  const server = createServer();
  server.listen(0, "127.0.0.1", () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

let counter = 0;
function workspace() {
  const directory = join(root, `case-${counter++}`);
  const home = join(directory, "home");
  const project = join(directory, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  return { directory, home, project };
}

const event = (ws, sessionId, name, extra) =>
  JSON.stringify({
    session_id: sessionId,
    cwd: ws.project,
    permission_mode: "default",
    hook_event_name: name,
    tool_name: "Bash",
    ...extra,
  });

/** one hook process: ms to the answer on stdout, ms to exit, the permission decision */
function runHook(ws, env, input) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered;
    let stdout = "";
    const child = spawn(process.execPath, [entry, "hook", "claude-code"], {
      cwd: ws.project,
      env: { PATH: process.env.PATH, HOME: ws.home, TOOLGATE_INTERACTIVE: "1", ...env },
      stdio: ["pipe", "pipe", "ignore"],
    });
    child.stdout.on("data", (chunk) => {
      answered ??= performance.now() - started;
      stdout += String(chunk);
    });
    child.on("error", reject);
    let exited;
    child.on("exit", () => {
      exited = performance.now() - started;
    });
    // the decision at "close": stdout may still hold unread data when "exit" fires
    child.on("close", (code) => {
      exited ??= performance.now() - started;
      const decision = stdout.trim() ? JSON.parse(stdout).hookSpecificOutput?.permissionDecision : `exit ${code}`;
      resolve({ answered: answered ?? exited, exited, decision });
    });
    child.stdin.end(input);
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = [];
async function measure(fault, setup) {
  const ws = workspace();
  const { env, before } = await setup(ws);
  const answers = [];
  const exits = [];
  const decisions = new Set();
  for (let index = 0; index < tries; index++) {
    const sessionId = `fault-${index}`;
    before?.(ws, sessionId);
    const result = await runHook(
      ws,
      env,
      event(ws, sessionId, "PreToolUse", { tool_input: { command: "rm -rf build" }, tool_use_id: `toolu_${index}` }),
    );
    answers.push(result.answered);
    exits.push(result.exited);
    decisions.add(result.decision);
  }
  const post = await runHook(
    ws,
    env,
    event(ws, "fault-0", "PostToolUse", {
      tool_input: { command: "ls" },
      tool_response: { stdout: "a", stderr: "", interrupted: false },
      tool_use_id: "toolu_post",
    }),
  );
  rows.push({
    fault,
    decisions: [...decisions].join(", "),
    worstAnswer: Math.max(...answers),
    medianAnswer: median(answers),
    worstExit: Math.max(...exits),
    post: post.exited,
  });
}

await measure("none (SQLite file, healthy)", (ws) => ({ env: { TOOLGATE_DB: join(ws.directory, "toolgate.db") } }));
if (process.env.TOOLGATE_TEST_DATABASE_URL) {
  await measure("none (Postgres, healthy)", () => ({
    env: { TOOLGATE_DATABASE_URL: process.env.TOOLGATE_TEST_DATABASE_URL },
  }));
}
await measure("`TOOLGATE_DB` is a directory", (ws) => {
  mkdirSync(join(ws.directory, "db"));
  return { env: { TOOLGATE_DB: join(ws.directory, "db") } };
});
await measure("`TOOLGATE_DB` is a corrupt file", (ws) => {
  writeFileSync(join(ws.directory, "bad.db"), "this is not a database".repeat(200));
  return { env: { TOOLGATE_DB: join(ws.directory, "bad.db") } };
});
await measure("SQLite locked (`BEGIN EXCLUSIVE` held by another process)", (ws) => {
  const file = join(ws.directory, "toolgate.db");
  const Database = createRequire(import.meta.url)(join(here, "..", "node_modules", "better-sqlite3"));
  const db = new Database(file);
  db.exec("CREATE TABLE IF NOT EXISTS held (x)");
  db.exec("BEGIN EXCLUSIVE");
  return { env: { TOOLGATE_DB: file } };
});
await measure("Postgres port closed", () => ({
  env: { TOOLGATE_DATABASE_URL: `postgres://toolgate@127.0.0.1:${closedPort}/test` },
}));
await measure("Postgres accepts and never answers", () => ({
  env: { TOOLGATE_DATABASE_URL: `postgres://toolgate@127.0.0.1:${silent.address().port}/test` },
}));
await measure("state file truncated before each event", (ws) => ({
  env: { TOOLGATE_DB: join(ws.directory, "toolgate.db") },
  before: (each, sessionId) => {
    const states = join(each.home, ".toolgate", "state");
    mkdirSync(states, { recursive: true });
    writeFileSync(join(states, `s-${sessionId}.json`), `{"sessionId":"${sessionId}","vers`);
  },
}));
await measure("state file truncated, Postgres never answers", () => ({
  env: { TOOLGATE_DATABASE_URL: `postgres://toolgate@127.0.0.1:${silent.address().port}/test` },
  before: (each, sessionId) => {
    const states = join(each.home, ".toolgate", "state");
    mkdirSync(states, { recursive: true });
    writeFileSync(join(states, `s-${sessionId}.json`), `{"sessionId":"${sessionId}","vers`);
  },
}));
await measure("state lock held by a live process", (ws) => ({
  env: { TOOLGATE_DB: join(ws.directory, "toolgate.db") },
  before: (each, sessionId) => {
    const states = join(each.home, ".toolgate", "state");
    mkdirSync(states, { recursive: true });
    const holder = { pid: process.pid, host: hostname(), at: Date.now(), token: "bench" };
    writeFileSync(join(states, `s-${sessionId}.lock`), JSON.stringify(holder));
  },
}));

for (const socket of sockets) socket.destroy();
silent.close();
rmSync(root, { recursive: true, force: true });
const ms = (value) => String(Math.round(value));
console.log(
  `entry: ${entry.replace(join(here, ".."), ".")}, ${tries} rule-denied PreToolUse per fault, load average ${loadavg()[0].toFixed(1)}`,
);
console.log("| fault | answers | worst answer ms | median answer ms | worst exit ms | PostToolUse exit ms |");
console.log("|---|---|---|---|---|---|");
for (const row of rows) {
  console.log(
    `| ${row.fault} | ${row.decisions} | ${ms(row.worstAnswer)} | ${ms(row.medianAnswer)} | ${ms(row.worstExit)} | ${ms(row.post)} |`,
  );
}
