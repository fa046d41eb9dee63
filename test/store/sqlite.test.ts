import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { runStoreContract } from "./contract.js";

runStoreContract({ name: "sqlite (:memory:)", create: () => createSqliteStore({ filename: ":memory:" }) });
