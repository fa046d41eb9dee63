import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe } from "vitest";
import { openSqlReader } from "../../src/dashboard/server/open-sql-reader.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { dashboardApiContract } from "./dashboard-api-contract.js";

describe("dashboard API on SQLite", () => {
  dashboardApiContract(async () => {
    const directory = mkdtempSync(join(tmpdir(), "toolgate-dashboard-"));
    const filename = join(directory, "toolgate.db");
    const store = await createSqliteStore({ filename });
    const reader = await openSqlReader({ engine: "sqlite", filename });
    return {
      store,
      reader,
      close: async () => {
        await reader.close();
        await store.close();
        rmSync(directory, { recursive: true, force: true });
      },
    };
  });
});
