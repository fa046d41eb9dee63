import { join } from "node:path";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { runStoreContract } from "./contract.js";

runStoreContract({ name: "sqlite (:memory:)", create: () => createSqliteStore({ filename: ":memory:" }) });

runStoreContract({
  name: "sqlite (file, WAL)",
  create: () => createSqliteStore({ filename: join(temporaryDirectory("toolgate-contract-"), "toolgate.db") }),
});
