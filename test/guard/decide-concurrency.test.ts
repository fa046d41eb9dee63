import { fork } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionState } from "../../src/core/state.js";
import { createFileSessionStateStore } from "../../src/store/file/file-session-state-store.js";
import { openDrainedStore } from "../../src/store/open-drained-store.js";
import { defaultStateDirectory } from "../../src/store/resolve-store-location.js";
import { describePostgres } from "../store/postgres-test-database.js";

/**
 * One decision = one reducer step = one state transaction: 8 hook-like processes decide rule-denied calls of ONE
 * session at the same time, through the composition root (the hook's local-first path: state in one file per
 * session, records spooled) and then the real store the spool is drained into. The counts are exact and each
 * threshold effect fires exactly once (an interactive session escalates once; a headless one aborts once and
 * refuses every later call as `aborted`). Runs on SQLite and on the real Postgres server.
 */
const WORKERS = 8;
const CALLS = 10;
const script = join(import.meta.dirname, "decide-worker.mjs");
const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function project(store: Record<string, unknown> = {}) {
  const root = mkdtempSync(join(tmpdir(), "toolgate-decide-"));
  directories.push(root);
  const home = join(root, "home");
  const cwd = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(cwd, { recursive: true });
  writeFileSync(
    join(cwd, "toolgate.config.json"),
    JSON.stringify({
      permissions: { deny: ["Bash(rm *)"] },
      claudeSettings: { enabled: false },
      audit: { logs: { destination: "off" } },
      store: { spoolDirectory: join(root, "spool"), ...store },
    }),
  );
  return { root, home, cwd };
}

/**
 * Forks one worker per argv list, releases them together once all opened toolgate, waits for all to exit 0, and
 * returns how many calls the workers saw refused because the session's lock stayed held past its budget.
 */
async function runTogether(argvs: string[][]): Promise<number> {
  const children = argvs.map((argv) => fork(script, argv, { stdio: ["ignore", "ignore", "pipe", "ipc"] }));
  let ready = 0;
  let refusedByLock = 0;
  const exits = children.map(
    (child, index) =>
      new Promise<void>((resolve, reject) => {
        let stderr = "";
        child.stderr?.on("data", (chunk) => {
          stderr += String(chunk);
        });
        child.on("message", (message) => {
          if (typeof message === "object" && message !== null && "refusedByLock" in message) {
            refusedByLock += Number(message.refusedByLock);
            return;
          }
          ready += 1;
          if (ready === children.length) for (const each of children) each.send("go");
        });
        // "close", not "exit": stderr and IPC messages may still be unread when "exit" fires
        child.on("close", (code) =>
          code === 0 ? resolve() : reject(new Error(`worker ${index} exited ${code}: ${stderr}`)),
        );
      }),
  );
  await Promise.all(exits);
  return refusedByLock;
}

async function decideConcurrently(options: {
  cwd: string;
  env: Record<string, string>;
  sessionId: string;
  interactive: boolean;
}) {
  const previous = process.cwd();
  process.chdir(options.cwd);
  const saved = { ...process.env };
  Object.assign(process.env, options.env);
  try {
    return await runTogether(
      Array.from({ length: WORKERS }, (_, index) => [
        options.sessionId,
        `w${index}`,
        String(CALLS),
        options.interactive ? "1" : "0",
      ]),
    );
  } finally {
    process.chdir(previous);
    for (const key of Object.keys(options.env)) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

async function outcome(options: { env: Record<string, string>; store: Record<string, unknown>; sessionId: string }) {
  // state: the session's state file; records and events: the store, after `report`'s drain of the spool
  const files = createFileSessionStateStore<SessionState>({
    directory: defaultStateDirectory({ home: options.env.HOME as string }),
  });
  const state = (await files.get(options.sessionId))?.state;
  const { store } = await openDrainedStore({ env: options.env, config: options.store });
  try {
    const rows = await store.denials.query({ sessionId: options.sessionId });
    const events = await store.denials.queryEvents({ sessionId: options.sessionId });
    const kinds = (kind: string) => events.filter((event) => event.kind === kind).length;
    return {
      total: state?.total,
      rows: rows.length,
      distinctCalls: new Set(rows.map((row) => row.toolUseId)).size,
      sources: rows.reduce<Record<string, number>>((counts, row) => {
        counts[row.source] = (counts[row.source] ?? 0) + 1;
        return counts;
      }, {}),
      escalations: kinds("escalation.reached"),
      aborts: kinds("run.aborted"),
    };
  } finally {
    await store.close();
  }
}

/**
 * Every call is recorded once; the session counts every call that got its lock. A call that waited past the lock's
 * budget on a loaded machine (refused fail-closed, as designed) is recorded as `internal` with no count: the counts
 * stay exact for the rest, and the threshold still fires exactly once.
 */
function expectExact(
  result: Awaited<ReturnType<typeof outcome>>,
  options: { interactive: boolean; refusedByLock: number },
) {
  const all = WORKERS * CALLS;
  const counted = all - options.refusedByLock;
  expect(counted, "calls that got the session's lock").toBeGreaterThan(2);
  const internal = options.refusedByLock === 0 ? {} : { internal: options.refusedByLock };
  expect(result.total).toBe(counted);
  expect(result.rows).toBe(all);
  expect(result.distinctCalls).toBe(all);
  expect(result.escalations).toBe(1);
  if (options.interactive) {
    expect(result.aborts).toBe(0);
    expect(result.sources).toEqual({ rule: counted, ...internal });
  } else {
    // the threshold (2 for shell tools) is reached exactly once; every later call is refused by that abort
    expect(result.aborts).toBe(1);
    expect(result.sources).toEqual({ rule: 2, aborted: counted - 2, ...internal });
  }
}

describe("one decision per state transaction, 8 processes on one session (SQLite)", () => {
  for (const interactive of [true, false]) {
    it(`${interactive ? "interactive: escalates once" : "headless: aborts once"}; counts exact`, async () => {
      const { root, home, cwd } = project();
      const env = { HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
      const refusedByLock = await decideConcurrently({ cwd, env, sessionId: "shared", interactive });
      expectExact(await outcome({ env, store: { spoolDirectory: join(root, "spool") }, sessionId: "shared" }), {
        interactive,
        refusedByLock,
      });
    }, 120_000);
  }
});

describePostgres("one decision per state transaction, 8 processes on one session (Postgres)", (postgres) => {
  for (const interactive of [true, false]) {
    it(`${interactive ? "interactive: escalates once" : "headless: aborts once"}; counts exact`, async () => {
      const schema = postgres.newSchema();
      const { root, home, cwd } = project({ schema });
      const env = { HOME: home, TOOLGATE_DATABASE_URL: postgres.url() };
      const refusedByLock = await decideConcurrently({ cwd, env, sessionId: "shared", interactive });
      const store = { schema, spoolDirectory: join(root, "spool") };
      expectExact(await outcome({ env, store, sessionId: "shared" }), { interactive, refusedByLock });
    }, 120_000);
  }
});
