import { spawn } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { createSpool } from "../../src/store/spool.js";
import type { SpoolBatch } from "../../src/store/spooled-denial-store.js";
import { assertBuilt, runToolgate, toolgateCommand } from "../e2e/claude/toolgate-cli.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * The command hook's local-first hot path, through the real built CLI (`toolgate hook claude-code`, one process
 * per event): session state in `~/.toolgate/state/<session>.json`, records spooled first and drained into the
 * real SQLite file or Postgres server by `report`/`tail` and non-gating events. Faults are real: a directory where
 * the database should be, a truncated state file, a lock file held by a live process, a closed port, a server
 * that accepts and never answers (issue 12 classes 1, 2 and 4; issue 13 item 2).
 */
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});
beforeAll(() => assertBuilt());

interface Workspace {
  root: string;
  home: string;
  project: string;
}

function workspace(config?: Record<string, unknown>): Workspace {
  const root = mkdtempSync(join(tmpdir(), "toolgate-hook-local-first-"));
  directories.push(root);
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } }));
  if (config) writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(config));
  return { root, home, project };
}

const preToolUse = (sessionId: string, command: string, toolUseId: string, project: string) =>
  JSON.stringify({
    session_id: sessionId,
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: toolUseId,
  });

const postToolUse = (sessionId: string, toolUseId: string, project: string) =>
  JSON.stringify({
    session_id: sessionId,
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls" },
    tool_response: { stdout: "a", stderr: "", interrupted: false },
    tool_use_id: toolUseId,
  });

/** the environment of every process: a private HOME, and no store variable of the machine running the tests */
function envOf(ws: Workspace, env: Record<string, string>): Record<string, string> {
  return { HOME: ws.home, TOOLGATE_DATABASE_URL: "", TOOLGATE_DB: "", TOOLGATE_INTERACTIVE: "1", ...env };
}

function hook(ws: Workspace, env: Record<string, string>, input: string) {
  const result = runToolgate({ args: ["hook", "claude-code"], cwd: ws.project, env: envOf(ws, env), input });
  const answer = result.stdout.trim() === "" ? undefined : JSON.parse(result.stdout);
  return { ...result, decision: answer?.hookSpecificOutput?.permissionDecision as string | undefined, answer };
}

function stateTotal(ws: Workspace, sessionId: string): number | undefined {
  const file = join(ws.home, ".toolgate", "state", `s-${sessionId}.json`);
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")).state.total : undefined;
}

/** every record waiting in the HOME's spools (each store has its own directory under ~/.toolgate/spool) */
function spooledRecords(ws: Workspace): DenialRecord[] {
  const base = join(ws.home, ".toolgate", "spool");
  if (!existsSync(base)) return [];
  const directories = [
    base,
    ...readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "hooks")
      .map((entry) => join(base, entry.name)),
  ];
  return directories
    .flatMap((directory) => createSpool<SpoolBatch>({ directory, prefix: "denials" }).pending())
    .flatMap((batch) => (batch.kind === "denials" ? batch.records : []));
}

/** Renames every spooled denial batch as though it had been written `ms` earlier (its name carries its time). */
function ageSpool(ws: Workspace, ms: number): void {
  const base = join(ws.home, ".toolgate", "spool");
  // the default store's spool, and each other store's `<engine>-<hash>` spool below it
  const directories = [
    base,
    ...readdirSync(base, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== "hooks")
      .map((entry) => join(base, entry.name)),
  ];
  for (const directory of directories) {
    for (const name of readdirSync(directory)) {
      const match = /^(denials-)(\d{15})(-.*\.jsonl)$/.exec(name);
      if (match === null) continue;
      const older = String(Number(match[2]) - ms).padStart(15, "0");
      renameSync(join(directory, name), join(directory, `${match[1]}${older}${match[3]}`));
    }
  }
}

function report(ws: Workspace, env: Record<string, string>, sessionId: string) {
  const result = runToolgate({
    args: ["report", "--json", "--session", sessionId],
    cwd: ws.project,
    env: envOf(ws, env),
  });
  return { exitCode: result.exitCode, total: result.exitCode === 0 ? JSON.parse(result.stdout).total : undefined };
}

/** `report` without blocking this process's event loop (the Postgres test's TCP front runs in it) */
function reportAsync(ws: Workspace, env: Record<string, string>, sessionId: string) {
  return new Promise<{ exitCode: number | null; total: number | undefined }>((resolve, reject) => {
    const [command, ...args] = toolgateCommand("report", "--json", "--session", sessionId);
    const child = spawn(command as string, args, {
      cwd: ws.project,
      env: { ...process.env, ...envOf(ws, env) },
      stdio: ["ignore", "pipe", "ignore"],
    });
    let stdout = "";
    child.stdout.on("data", (chunk) => {
      stdout += String(chunk);
    });
    child.on("error", reject);
    // "close", not "exit": a child's stdout may still hold unread data when "exit" fires (under load it did)
    child.on("close", (code) => resolve({ exitCode: code, total: code === 0 ? JSON.parse(stdout).total : undefined }));
  });
}

describe("toolgate hook claude-code keeps state in files and records in the spool", () => {
  it("counts both calls of issue 12's repro while TOOLGATE_DB is a directory, and delivers them exactly once after", () => {
    const ws = workspace();
    const database = join(ws.root, "db");
    mkdirSync(database);
    const env = { TOOLGATE_DB: database };
    const first = hook(ws, env, preToolUse("repro", "rm -rf build", "toolu_1", ws.project));
    expect(first.exitCode).toBe(0);
    expect(first.decision).toBe("deny");
    expect(stateTotal(ws, "repro")).toBe(1);
    // the store cannot be opened: report says so (exit 7) and the record waits in the spool
    expect(report(ws, env, "repro").exitCode).toBe(7);
    expect(spooledRecords(ws).map((record) => record.toolUseId)).toEqual(["toolu_1"]);
    rmSync(database, { recursive: true });
    const second = hook(ws, env, preToolUse("repro", "rm -rf build", "toolu_2", ws.project));
    expect(second.decision).toBe("deny");
    expect(stateTotal(ws, "repro")).toBe(2);
    expect(report(ws, env, "repro")).toEqual({ exitCode: 0, total: 2 });
    expect(spooledRecords(ws)).toEqual([]);
    expect(report(ws, env, "repro")).toEqual({ exitCode: 0, total: 2 });
  }, 180_000);

  it("a non-gating event drains a spool that waited 30 s, SessionEnd drains at once; Stop and a gating one never", () => {
    const ws = workspace();
    const env = { TOOLGATE_DB: join(ws.root, "toolgate.db") };
    hook(ws, env, preToolUse("drain", "rm -rf build", "toolu_1", ws.project));
    expect(spooledRecords(ws)).toHaveLength(1);
    expect(existsSync(join(ws.root, "toolgate.db"))).toBe(false);
    // a PostToolUse right after leaves a fresh spool alone (it costs what a gating event costs)
    expect(hook(ws, env, postToolUse("drain", "toolu_2", ws.project)).exitCode).toBe(0);
    expect(spooledRecords(ws)).toHaveLength(1);
    expect(existsSync(join(ws.root, "toolgate.db"))).toBe(false);
    // the same spool file as though written a minute ago (the file name carries its time): now it is due
    ageSpool(ws, 60_000);
    expect(hook(ws, env, postToolUse("drain", "toolu_2", ws.project)).exitCode).toBe(0);
    expect(spooledRecords(ws)).toEqual([]);
    expect(existsSync(join(ws.root, "toolgate.db"))).toBe(true);
    expect(report(ws, env, "drain")).toEqual({ exitCode: 0, total: 1 });
    // a turn's end (Stop) leaves a fresh spool alone too: it comes every turn
    hook(ws, env, preToolUse("drain", "rm -rf build", "toolu_3", ws.project));
    expect(spooledRecords(ws)).toHaveLength(1);
    const event = (name: string) => JSON.stringify({ session_id: "drain", cwd: ws.project, hook_event_name: name });
    expect(hook(ws, env, event("Stop")).exitCode).toBe(0);
    expect(spooledRecords(ws)).toHaveLength(1);
    // the session's end drains what it spooled
    expect(hook(ws, env, event("SessionEnd")).exitCode).toBe(0);
    expect(spooledRecords(ws)).toEqual([]);
    expect(report(ws, env, "drain")).toEqual({ exitCode: 0, total: 2 });
  }, 180_000);

  it("a Stop records the denials its transcript shows in the spool without opening the store; SessionEnd drains them", () => {
    const ws = workspace();
    const env = { TOOLGATE_DB: join(ws.root, "toolgate.db") };
    const transcript = join(ws.root, "transcript.jsonl");
    copyFileSync(join(import.meta.dirname, "..", "fixtures", "claude-code", "transcript-denials.jsonl"), transcript);
    const event = (name: string) =>
      JSON.stringify({ session_id: "stop", cwd: ws.project, hook_event_name: name, transcript_path: transcript });
    // the turn began (the session has state: Stop need not ask the store what is recorded), then ended
    expect(hook(ws, env, event("UserPromptSubmit")).exitCode).toBe(0);
    expect(hook(ws, env, event("Stop")).exitCode).toBe(0);
    const total = stateTotal(ws, "stop") ?? 0;
    expect(total).toBeGreaterThan(0);
    expect(spooledRecords(ws)).toHaveLength(total);
    expect(existsSync(join(ws.root, "toolgate.db"))).toBe(false);
    // the session's end drains them (it finds nothing new to record in the transcript)
    expect(hook(ws, env, event("SessionEnd")).exitCode).toBe(0);
    expect(spooledRecords(ws)).toEqual([]);
    expect(existsSync(join(ws.root, "toolgate.db"))).toBe(true);
    expect(report(ws, env, "stop")).toEqual({ exitCode: 0, total });
  }, 180_000);

  it("a truncated state file fails the gating event closed, and the session's counts and abort come back from its records", () => {
    const ws = workspace();
    const env = { TOOLGATE_DB: join(ws.root, "toolgate.db"), TOOLGATE_INTERACTIVE: "0" };
    hook(ws, env, preToolUse("corrupt", "rm -rf a", "toolu_1", ws.project));
    const aborting = hook(ws, env, preToolUse("corrupt", "rm -rf b", "toolu_2", ws.project));
    expect(aborting.answer.continue).toBe(false); // headless: the second rm denial aborts the run
    const stateFile = join(ws.home, ".toolgate", "state", "s-corrupt.json");
    writeFileSync(stateFile, '{"sessionId":"corrupt","vers');
    const refused = hook(ws, env, preToolUse("corrupt", "ls", "toolu_3", ws.project));
    expect(refused.decision).toBe("deny");
    expect(refused.answer.hookSpecificOutput.permissionDecisionReason).toContain("could not check this call");
    expect(readdirSync(join(ws.home, ".toolgate", "state")).some((name) => name.includes(".corrupt-"))).toBe(true);
    // rebuilt from the two records, plus the refusal itself: the abort stands, an allowed call stays refused
    expect(stateTotal(ws, "corrupt")).toBe(3);
    const later = hook(ws, env, preToolUse("corrupt", "ls", "toolu_4", ws.project));
    expect(later.decision).toBe("deny");
    expect(later.answer.continue).toBe(false);
    expect(report(ws, env, "corrupt")).toEqual({ exitCode: 0, total: 4 });
  }, 180_000);

  it("a truncated state file while Postgres never answers: rebuilt from the spool alone", async () => {
    const ws = workspace();
    const silent = createServer(() => undefined); // accepts (the kernel does), never answers
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = silent.address() as { port: number };
      const env = { TOOLGATE_DATABASE_URL: `postgres://toolgate@127.0.0.1:${port}/test`, TOOLGATE_INTERACTIVE: "0" };
      hook(ws, env, preToolUse("silent", "rm -rf a", "toolu_1", ws.project));
      hook(ws, env, preToolUse("silent", "rm -rf b", "toolu_2", ws.project));
      writeFileSync(join(ws.home, ".toolgate", "state", "s-silent.json"), '{"sessionId":"silent","vers');
      const refused = hook(ws, env, preToolUse("silent", "ls", "toolu_3", ws.project));
      expect(refused.decision).toBe("deny");
      expect(refused.stderr).toContain("spool only");
      expect(stateTotal(ws, "silent")).toBe(3);
      expect(hook(ws, env, preToolUse("silent", "ls", "toolu_4", ws.project)).answer.continue).toBe(false);
      expect(spooledRecords(ws).map((record) => record.toolUseId)).toEqual([
        "toolu_1",
        "toolu_2",
        "toolu_3",
        "toolu_4",
      ]);
    } finally {
      await new Promise((resolve) => silent.close(resolve));
    }
  }, 180_000);

  it("a lock held by a live process: the call is refused within the lock budget and the refusal is spooled", () => {
    const ws = workspace();
    const env = { TOOLGATE_DB: join(ws.root, "toolgate.db") };
    const states = join(ws.home, ".toolgate", "state");
    mkdirSync(states, { recursive: true });
    const holder = { pid: process.pid, host: hostname(), at: Date.now(), token: "held-by-the-test" };
    writeFileSync(join(states, "s-locked.lock"), JSON.stringify(holder));
    const refused = hook(ws, env, preToolUse("locked", "ls", "toolu_1", ws.project));
    expect(refused.decision).toBe("deny");
    expect(refused.answer.hookSpecificOutput.permissionDecisionReason).toContain("stayed locked");
    expect(spooledRecords(ws).map((record) => [record.toolUseId, record.source])).toEqual([["toolu_1", "internal"]]);
    rmSync(join(states, "s-locked.lock"));
    expect(report(ws, env, "locked")).toEqual({ exitCode: 0, total: 1 });
  }, 180_000);

  it("8 hook processes deciding one session at once: counts exact, every record stored once", async () => {
    const ws = workspace();
    const env = { TOOLGATE_DB: join(ws.root, "toolgate.db") };
    const WORKERS = 8;
    const CALLS = 4;
    const run = (input: string) =>
      new Promise<string>((resolve, reject) => {
        const [command, ...args] = toolgateCommand("hook", "claude-code");
        const child = spawn(command as string, args, {
          cwd: ws.project,
          env: { ...process.env, ...envOf(ws, env) },
          stdio: ["pipe", "pipe", "ignore"],
        });
        let stdout = "";
        child.stdout.on("data", (chunk) => {
          stdout += String(chunk);
        });
        child.on("error", reject);
        // "close", not "exit": a child's stdout may still hold unread data when "exit" fires (under load it did)
        child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`hook exited ${code}`))));
        child.stdin.end(input);
      });
    const answers = await Promise.all(
      Array.from({ length: WORKERS }, async (_, worker) => {
        const out: string[] = [];
        for (let call = 0; call < CALLS; call++) {
          out.push(await run(preToolUse("shared", `rm -rf w${worker}-${call}`, `toolu_${worker}_${call}`, ws.project)));
        }
        return out;
      }),
    );
    for (const answer of answers.flat()) expect(JSON.parse(answer).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(stateTotal(ws, "shared")).toBe(WORKERS * CALLS);
    expect(new Set(spooledRecords(ws).map((record) => record.seq)).size).toBe(WORKERS * CALLS);
    expect(report(ws, env, "shared")).toEqual({ exitCode: 0, total: WORKERS * CALLS });
    expect(report(ws, env, "shared")).toEqual({ exitCode: 0, total: WORKERS * CALLS });
  }, 180_000);
});

describe("each store has its own spool", () => {
  it("a report against another store does not take the hooks' records with it", () => {
    const ws = workspace();
    const hooks = { TOOLGATE_DB: join(ws.root, "hooks.db") };
    hook(ws, hooks, preToolUse("own", "rm -rf build", "toolu_1", ws.project));
    expect(report(ws, { TOOLGATE_DB: join(ws.root, "other.db") }, "own")).toEqual({ exitCode: 0, total: 0 });
    expect(spooledRecords(ws)).toHaveLength(1);
    expect(report(ws, hooks, "own")).toEqual({ exitCode: 0, total: 1 });
  }, 180_000);
});

describePostgres("the hook's records reach Postgres after an outage, exactly once", (postgres) => {
  /**
   * One Postgres URL through the test's own TCP front on 127.0.0.1: first nothing listens (a closed port), then it
   * accepts and never answers, then it forwards to the real server. The hooks and `report` keep the same URL, as a
   * fleet's do through an outage (each store has its own spool, so the URL must not change).
   */
  let mode: "silent" | "forward" = "silent";
  let front: Server | undefined;
  const sockets: Socket[] = [];
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      front = createServer((socket) => {
        sockets.push(socket);
        if (mode === "silent") return;
        const target = new URL(postgres.url());
        const upstream = connect(Number(target.port || 5432), target.hostname);
        sockets.push(upstream);
        socket.pipe(upstream).pipe(socket);
        upstream.on("error", () => socket.destroy());
        socket.on("error", () => upstream.destroy());
      });
      front.once("error", reject);
      front.listen(port, "127.0.0.1", resolve);
    });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => (front ? front.close(resolve) : resolve(undefined)));
  });

  const freePort = async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    return port;
  };

  it("a closed port, then a server that never answers: every call counted, records spooled, then delivered once", async () => {
    const schema = postgres.newSchema();
    const ws = workspace({ store: { schema }, audit: { logs: { destination: "off" } } });
    const port = await freePort();
    const url = new URL(postgres.url());
    url.hostname = "127.0.0.1";
    url.port = String(port);
    const env = { TOOLGATE_DATABASE_URL: url.toString() };
    let call = 0;
    const outage = () => {
      for (let index = 0; index < 2; index++) {
        const answer = hook(ws, env, preToolUse("fleet", `rm -rf x${call}`, `toolu_${call++}`, ws.project));
        expect(answer.decision).toBe("deny");
      }
      // a non-gating event tries to drain, gives up within its budget, and keeps the records
      expect(hook(ws, env, postToolUse("fleet", `toolu_ok_${call}`, ws.project)).exitCode).toBe(0);
    };
    outage(); // nothing listens on the port
    await listen(port);
    outage(); // accepts, never answers
    expect(stateTotal(ws, "fleet")).toBe(4);
    expect(spooledRecords(ws)).toHaveLength(4);
    mode = "forward"; // the server is back, under the same URL
    expect(await reportAsync(ws, env, "fleet")).toEqual({ exitCode: 0, total: 4 });
    expect(spooledRecords(ws)).toEqual([]);
    expect(await reportAsync(ws, env, "fleet")).toEqual({ exitCode: 0, total: 4 });
  }, 180_000);
});
