import { type ChildProcess, fork } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../src/core/records.js";
import { openDrainedStore } from "../../src/store/open-drained-store.js";
import { openStore } from "../../src/store/open-store.js";
import { resolveStoreLocation } from "../../src/store/resolve-store-location.js";
import { createSpool } from "../../src/store/spool.js";
import { spoolDirectoryFor } from "../../src/store/spool-directory-for.js";
import { createSpooledDenialStore, type SpoolBatch } from "../../src/store/spooled-denial-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { bundleScript } from "./bundle-script.js";
import { makeRecord } from "./fixtures.js";

/**
 * A reader (`report`, `tail`, `run`, the dashboard) that drains the spool while another process (a SessionEnd's
 * detached drain) holds a batch's claim must wait for that delivery, not read the store without it: `toolgate run`
 * exited 0 after a denial because a background drain had claimed the denial's file.
 */
let drainerScript: string;
beforeAll(async () => {
  drainerScript = await bundleScript(join(import.meta.dirname, "slow-drainer-worker.ts"));
});

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/**
 * A SQLite store selected the way the CLI selects it (HOME, TOOLGATE_DB), created as after any earlier session (so
 * the drainer opens an existing database), with one batch of `records` waiting in its spool.
 */
async function storeWithSpooledBatch(records: DenialRecord[]) {
  const root = temporaryDirectory("toolgate-claimed-");
  const home = join(root, "home");
  mkdirSync(home);
  const env = { HOME: home, TOOLGATE_DB: join(root, "toolgate.db") };
  const location = resolveStoreLocation({ env, home });
  if (location.engine !== "sqlite") throw new Error("expected SQLite");
  const spoolDirectory = spoolDirectoryFor(location, { home });
  await (await openDrainedStore({ env })).store.close();
  createSpool<SpoolBatch>({ directory: spoolDirectory, prefix: "denials" }).append({ kind: "denials", records });
  return { env, filename: location.filename, spoolDirectory };
}

/** a real second process that drains the spool into the SQLite file, holding each claim until told "deliver" */
function startDrainer(spoolDirectory: string, filename: string): ChildProcess {
  const drainer = fork(drainerScript, [spoolDirectory, filename], { stdio: ["ignore", "ignore", "pipe", "ipc"] });
  children.push(drainer);
  return drainer;
}

function nextMessage(child: ChildProcess, expected: string): Promise<void> {
  return new Promise((resolve, reject) => {
    child.once("message", (message) =>
      message === expected ? resolve() : reject(new Error(`worker said ${String(message)}`)),
    );
    child.once("exit", (code) => reject(new Error(`worker exited ${code} before "${expected}"`)));
  });
}

/** A spooled denial store over a new SQLite file (as an in-process host or a hook opens it), and where its parts are. */
function spooledSqlite(options: { mode?: "spool-first"; timeoutMs?: number } = {}) {
  const root = temporaryDirectory("toolgate-claimed-");
  const filename = join(root, "toolgate.db");
  const spoolDirectory = join(root, "spool");
  const spooled = createSpooledDenialStore({
    open: async () => (await openStore({ location: { engine: "sqlite", filename } })).denials,
    spoolDirectory,
    ...options,
  });
  return { filename, spoolDirectory, spooled };
}

describe("a reader and a batch another process is shipping", () => {
  it("openDrainedStore waits for the other process's claim and reads the batch it delivered", async () => {
    const { env, filename, spoolDirectory } = await storeWithSpooledBatch([
      makeRecord({ seq: 1 }),
      makeRecord({ seq: 2 }),
    ]);
    const drainer = startDrainer(spoolDirectory, filename);
    await nextMessage(drainer, "claimed");
    // the reader starts while the batch is claimed; the drainer delivers a moment later
    const delivered = nextMessage(drainer, "delivered");
    const reading = openDrainedStore({ env });
    setTimeout(() => drainer.send("deliver"), 300);
    const opened = await reading;
    try {
      expect(await opened.store.denials.query({})).toHaveLength(2);
      expect(opened.waiting()).toEqual({ batches: 0 });
    } finally {
      await opened.store.close();
    }
    await delivered;
  });

  it("an in-process host's store reads (query) wait for it too", async () => {
    const { filename, spoolDirectory, spooled } = spooledSqlite();
    try {
      expect(await spooled.query({})).toEqual([]); // the database exists before the drainer opens it
      spooled.spool.append({ kind: "denials", records: [makeRecord({ seq: 1 })] });
      const drainer = startDrainer(spoolDirectory, filename);
      await nextMessage(drainer, "claimed");
      const delivered = nextMessage(drainer, "delivered");
      const reading = spooled.query({});
      setTimeout(() => drainer.send("deliver"), 300);
      expect(await reading).toHaveLength(1);
      await delivered;
    } finally {
      await spooled.close();
    }
  });

  it("a session's records (the hook's question: which calls are recorded) neither drain nor wait for the claim", async () => {
    // a reader that waited for the claim would wait out this budget, far past the test's own timeout
    const { filename, spoolDirectory, spooled } = spooledSqlite({ mode: "spool-first", timeoutMs: 600_000 });
    try {
      await spooled.append([makeRecord({ seq: 1 })]);
      await spooled.drain(); // stored: the database exists before the drainer opens it
      spooled.spool.append({ kind: "denials", records: [makeRecord({ seq: 2 }), makeRecord({ seq: 3 })] });
      spooled.spool.append({ kind: "denials", records: [makeRecord({ seq: 1, sessionId: "session-b" })] });
      const drainer = startDrainer(spoolDirectory, filename);
      await nextMessage(drainer, "claimed"); // the drainer holds the first waiting batch, undelivered
      const waiting = spooled.spool.settledPending()?.length;
      const rows = await spooled.sessionRecords("session-a");
      expect(rows.map((row) => [row.seq, row.id > 0 ? "stored" : "waiting"])).toEqual([
        [1, "stored"],
        [2, "waiting"],
        [3, "waiting"],
      ]);
      // nothing was shipped by the read: both batches still wait, one of them claimed by the drainer
      expect(spooled.spool.settledPending()?.length).toBe(waiting);
      // the drainer delivers its batch, then claims and delivers the other one
      const second = nextMessage(drainer, "claimed");
      drainer.send("deliver");
      await second;
      const delivered = nextMessage(drainer, "delivered");
      drainer.send("deliver");
      await delivered;
      // after both deliveries: each record once, now from the store
      const after = await spooled.sessionRecords("session-a");
      expect(after.map((row) => [row.seq, row.id > 0 ? "stored" : "waiting"])).toEqual([
        [1, "stored"],
        [2, "stored"],
        [3, "stored"],
      ]);
    } finally {
      await spooled.close();
    }
  });

  it("a record both delivered and still in the spool (its claim not yet deleted) is read once", async () => {
    const { filename, spooled } = spooledSqlite({ mode: "spool-first" });
    try {
      const record = makeRecord({ seq: 1 });
      spooled.spool.append({ kind: "denials", records: [record] });
      // delivered by a drainer that has not yet deleted its claim: in the store and in the spool at once
      await (await openStore({ location: { engine: "sqlite", filename } })).denials.append([record]);
      const rows = await spooled.sessionRecords("session-a");
      expect(rows.map((row) => [row.seq, row.id > 0 ? "stored" : "waiting"])).toEqual([[1, "stored"]]);
    } finally {
      await spooled.close();
    }
  });

  it("a claim whose process is gone is taken over at once (not after the minute a claim goes stale)", async () => {
    const { env, filename, spoolDirectory } = await storeWithSpooledBatch([makeRecord({ seq: 1 })]);
    // the drainer claims the batch and is killed before it delivers
    const drainer = startDrainer(spoolDirectory, filename);
    await nextMessage(drainer, "claimed");
    const gone = new Promise((resolve) => drainer.once("exit", resolve));
    drainer.kill("SIGKILL");
    await gone;
    const opened = await openDrainedStore({ env });
    try {
      expect(opened.replayed).toBe(1);
      expect(await opened.store.denials.query({})).toHaveLength(1);
    } finally {
      await opened.store.close();
    }
  });
});
