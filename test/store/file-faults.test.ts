import { type ChildProcess, execFileSync, fork, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { hostname, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolgateError } from "../../src/core/errors.js";
import { createFileSessionStateStore } from "../../src/store/file/file-session-state-store.js";
import { bundleScript } from "./bundle-script.js";

interface Counter {
  count: number;
}
const increment = (state: Counter | undefined): Counter => ({ count: (state?.count ?? 0) + 1 });

/**
 * Faults of the hot-path state store, with real files, a real read-only mount and real processes that die holding
 * the lock. Every failure must be a typed error (the guard answers fail-closed), never a lost or invented count.
 */
const roots: string[] = [];
let holderScript: string;
beforeAll(async () => {
  holderScript = await bundleScript(join(import.meta.dirname, "lock-holder-worker.ts"));
});
afterAll(() => {
  rmSync(dirname(holderScript), { recursive: true, force: true });
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const stateDirectory = () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-file-faults-"));
  roots.push(root);
  const directory = join(root, "state");
  mkdirSync(directory);
  return directory;
};
const caught = async (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
/** a pid that belonged to a process which has exited */
const deadPid = () => spawnSync(process.execPath, ["-e", "0"]).pid!;

describe("permissions", () => {
  it("creates the state directory 0700 and the state file 0600 (state can hold redacted inputs)", async () => {
    const directory = join(stateDirectory(), "nested", "state");
    const store = createFileSessionStateStore<Counter>({ directory });
    await store.update("s", increment);
    expect(statSync(directory).mode & 0o777).toBe(0o700);
    expect(statSync(join(directory, "s-s.json")).mode & 0o777).toBe(0o600);
  });
});

describe("a damaged state file fails the update closed, is moved aside, and the next update starts over", () => {
  it("a state file truncated mid-JSON", async () => {
    const directory = stateDirectory();
    const store = createFileSessionStateStore<Counter>({ directory });
    await store.update("s", increment);
    await store.update("s", increment);
    const file = join(directory, "s-s.json");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.length - 9)); // cut inside the state
    const readError = await caught(store.get("s"));
    expect(readError).toMatchObject({ code: "STORE_CORRUPT", data: { reason: "state-corrupt" } });
    const error = await caught(store.update("s", increment));
    expect(ToolgateError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "STORE_CORRUPT", data: { reason: "state-corrupt", file } });
    const quarantined = (error as ToolgateError).data!.quarantined as string;
    expect(readFileSync(quarantined, "utf8")).toBe(text.slice(0, text.length - 9));
    expect(existsSync(file)).toBe(false);
    expect(await store.update("s", increment)).toEqual({ state: { count: 1 }, version: 1 });
  });

  it("a directory where the state file should be", async () => {
    const directory = stateDirectory();
    const store = createFileSessionStateStore<Counter>({ directory });
    mkdirSync(join(directory, "s-s.json"));
    expect(await caught(store.update("s", increment))).toMatchObject({
      code: "STORE_CORRUPT",
      data: { reason: "state-corrupt" },
    });
    expect(await store.update("s", increment)).toEqual({ state: { count: 1 }, version: 1 });
  });

  it("a file of another session or of another program", async () => {
    const directory = stateDirectory();
    const store = createFileSessionStateStore<Counter>({ directory });
    writeFileSync(join(directory, "s-a.json"), JSON.stringify({ sessionId: "b", version: 3, state: { count: 3 } }));
    writeFileSync(join(directory, "s-c.json"), JSON.stringify([1, 2, 3]));
    for (const session of ["a", "c"]) {
      expect(await caught(store.update(session, increment))).toMatchObject({ code: "STORE_CORRUPT" });
    }
  });
});

describe("a read-only state directory (read-only bind mount)", () => {
  const canMount = process.getuid?.() === 0 && spawnSync("mount", ["--version"]).status === 0;
  it.skipIf(!canMount)("refuses the update with a typed error and keeps the last state readable", async () => {
    const directory = stateDirectory();
    const store = createFileSessionStateStore<Counter>({ directory });
    await store.update("s", increment);
    execFileSync("mount", ["--bind", directory, directory]);
    try {
      execFileSync("mount", ["-o", "remount,ro,bind", directory]);
      const started = Date.now();
      const error = await caught(store.update("s", increment));
      expect(Date.now() - started).toBeLessThan(1_000);
      expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", data: { reason: "state-unwritable", errno: "EROFS" } });
      expect((error as Error).message).toContain("fail closed");
      expect(await store.get("s")).toEqual({ state: { count: 1 }, version: 1 });
    } finally {
      execFileSync("umount", [directory]);
    }
    expect(await store.update("s", increment)).toEqual({ state: { count: 2 }, version: 2 });
  });
});

describe("locks", () => {
  const holders: ChildProcess[] = [];
  afterAll(() => {
    for (const holder of holders) holder.kill("SIGKILL");
  });
  const holdLock = async (lock: string) => {
    const holder = fork(holderScript, [lock], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    holders.push(holder);
    await new Promise((resolve) => holder.once("message", resolve));
    return holder;
  };

  it("refuses within its budget while a live process holds the lock, naming the holder", async () => {
    const directory = stateDirectory();
    const holder = await holdLock(join(directory, "s-s.lock"));
    const store = createFileSessionStateStore<Counter>({ directory, lockWaitMs: 300 });
    const started = Date.now();
    const error = await caught(store.update("s", increment));
    const waited = Date.now() - started;
    expect(error).toMatchObject({ code: "STORE_UNAVAILABLE", data: { reason: "state-locked" } });
    expect((error as Error).message).toContain(`process ${holder.pid}`);
    expect(waited).toBeGreaterThanOrEqual(290);
    expect(waited).toBeLessThan(800);
    holder.kill("SIGKILL");
  });

  it("takes over the lock of a holder that was killed while holding it, and counts on", async () => {
    const directory = stateDirectory();
    const store = createFileSessionStateStore<Counter>({ directory, lockWaitMs: 1_500 });
    await store.update("s", increment);
    const holder = await holdLock(join(directory, "s-s.lock"));
    holder.kill("SIGKILL");
    await new Promise((resolve) => holder.once("exit", resolve));
    // its temporary file, as if it died between writing and renaming
    const holderLock = JSON.parse(readFileSync(join(directory, "s-s.lock"), "utf8")) as { token: string };
    writeFileSync(join(directory, `s-s.json.${holderLock.token}.tmp`), "{}");
    const started = Date.now();
    expect(await store.update("s", increment)).toEqual({ state: { count: 2 }, version: 2 });
    expect(Date.now() - started).toBeLessThan(500); // no waiting for age: the holder is gone
    expect(readdirSync(directory)).toEqual(["s-s.json"]);
  });

  it("takes over a lock older than staleAfterMs even when its pid is alive (a reused pid), not a younger one", async () => {
    const directory = stateDirectory();
    const lock = join(directory, "s-s.lock");
    const store = createFileSessionStateStore<Counter>({ directory, lockWaitMs: 200, staleAfterMs: 5_000 });
    writeFileSync(lock, JSON.stringify({ pid: process.pid, host: hostname(), at: 0, token: "reused" }));
    expect(await caught(store.update("s", increment))).toMatchObject({ data: { reason: "state-locked" } });
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(lock, old, old);
    expect(await store.update("s", increment)).toEqual({ state: { count: 1 }, version: 1 });
  });

  it("judges an empty lock (a holder that died between create and write) by its age only", async () => {
    const directory = stateDirectory();
    const lock = join(directory, "s-s.lock");
    const store = createFileSessionStateStore<Counter>({ directory, lockWaitMs: 200, staleAfterMs: 5_000 });
    writeFileSync(lock, "");
    expect(await caught(store.update("s", increment))).toMatchObject({ data: { reason: "state-locked" } });
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(lock, old, old);
    expect((await store.update("s", increment)).version).toBe(1);
  });

  it("discards its write and starts again when its lock was taken over while it held it (no lost update)", async () => {
    const directory = stateDirectory();
    const lock = join(directory, "s-s.lock");
    const store = createFileSessionStateStore<Counter>({ directory });
    await store.update("s", increment);
    let calls = 0;
    const result = await store.update("s", (state) => {
      calls += 1;
      if (calls === 1) {
        // Another process judged our lock stale and took it over (here: a holder that has since died), and wrote
        // the state meanwhile. Our write must not clobber it.
        writeFileSync(lock, JSON.stringify({ pid: deadPid(), host: hostname(), at: Date.now(), token: "thief" }));
        writeFileSync(join(directory, "s-s.json"), JSON.stringify({ sessionId: "s", version: 2, state: { count: 2 } }));
      }
      return increment(state);
    });
    expect(calls).toBe(2);
    expect(result).toEqual({ state: { count: 3 }, version: 3 });
  });
});
