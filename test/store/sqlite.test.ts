import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { runStoreContract } from "./contract.js";

runStoreContract({ name: "sqlite (:memory:)", create: () => createSqliteStore({ filename: ":memory:" }) });

runStoreContract({
  name: "sqlite (file, WAL)",
  create: () => createSqliteStore({ filename: join(mkdtempSync(join(tmpdir(), "toolgate-contract-")), "toolgate.db") }),
});
