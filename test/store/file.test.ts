import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initialState } from "../../src/core/initial-state.js";
import { createLocalFirstStore } from "../../src/store/file/local-first-store.js";
import { openLocalFirstStore } from "../../src/store/file/open-local-first-store.js";
import { createMemoryDenialStore } from "../../src/store/memory-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { runStoreContract } from "./contract.js";
import { makeRecord } from "./fixtures.js";

/**
 * The hook's hot-path store (state files + spool-first records) passes the same contract as every other store:
 * records appended to the spool are drained into the real store before every read.
 */
const roots: string[] = [];
const root = () => {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-file-store-"));
  roots.push(directory);
  return directory;
};
afterAll(() => {
  for (const directory of roots) rmSync(directory, { recursive: true, force: true });
});

runStoreContract({
  name: "local-first (state files, spool drained into memory)",
  create: async () => {
    const directory = root();
    const backing = createMemoryDenialStore();
    return createLocalFirstStore({
      stateDirectory: join(directory, "state"),
      spoolDirectory: join(directory, "spool"),
      open: async () => backing,
    });
  },
});

runStoreContract({
  name: "local-first (state files, spool drained into a SQLite file)",
  create: async () => {
    const directory = root();
    const sqlite = createSqliteStore({ filename: join(directory, "toolgate.db") });
    const store = createLocalFirstStore({
      stateDirectory: join(directory, "state"),
      spoolDirectory: join(directory, "spool"),
      open: async () => (await sqlite).denials,
    });
    return {
      ...store,
      close: async () => {
        await store.close();
        await (await sqlite).close();
      },
    };
  },
});

describe("openLocalFirstStore", () => {
  it("keeps state and spool under the home's .toolgate and drains into the SQLite file TOOLGATE_DB names", async () => {
    const home = root();
    const database = join(home, "elsewhere", "toolgate.db");
    const store = openLocalFirstStore({ env: { TOOLGATE_DB: database }, home });
    await store.sessions.update("s", () => initialState({ sessionId: "s", interactive: false }));
    await store.denials.append([makeRecord({ seq: 1 })]);
    expect(readdirSync(join(home, ".toolgate", "state"))).toEqual(["s-s.json"]);
    expect(readdirSync(join(home, ".toolgate", "spool"))).toHaveLength(1);
    expect(existsSync(database)).toBe(false); // the hot path never opened the database
    expect(await store.denials.drain()).toEqual({ replayed: 1, failed: 0 });
    expect((await store.denials.report()).total).toBe(1);
    await store.close();
    expect(existsSync(database)).toBe(true);
  });

  it("refuses the memory engine instead of writing files", () => {
    expect(() => openLocalFirstStore({ env: { TOOLGATE_DB: "off" }, home: root() })).toThrow(/createMemoryStore/);
  });
});
