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
    const root = temporaryDirectory("toolgate-claimed-");
    const filename = join(root, "toolgate.db");
    const spoolDirectory = join(root, "spool");
    const spooled = createSpooledDenialStore({
      open: async () => (await openStore({ location: { engine: "sqlite", filename } })).denials,
      spoolDirectory,
    });
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
