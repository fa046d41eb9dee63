import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { createLocalFirstStore } from "../../src/store/file/local-first-store.js";
import { createMemoryDenialStore } from "../../src/store/memory-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { runStoreContract } from "./contract.js";

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
