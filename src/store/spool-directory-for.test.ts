import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultDatabasePath } from "./resolve-store-location.js";
import { spoolDirectoryFor } from "./spool-directory-for.js";

describe("spoolDirectoryFor: one spool per store, so a drain only ships records into their own store", () => {
  const home = "/home/someone";
  const base = join(home, ".toolgate", "spool");

  it("keeps ~/.toolgate/spool for the default SQLite file, and the config's spoolDirectory as set", () => {
    expect(spoolDirectoryFor({ engine: "sqlite", filename: defaultDatabasePath(home) }, { home })).toBe(base);
    const config = { spoolDirectory: "/var/spool/toolgate" };
    expect(spoolDirectoryFor({ engine: "postgres", connectionString: "postgres://h/db" }, { home, config })).toBe(
      "/var/spool/toolgate",
    );
  });

  it("gives every other store a directory of its own under it, stable across calls", () => {
    const other = spoolDirectoryFor({ engine: "sqlite", filename: "/tmp/project.db" }, { home });
    const fleet = spoolDirectoryFor({ engine: "postgres", connectionString: "postgres://u:pw@h:5432/db" }, { home });
    const schema = spoolDirectoryFor(
      { engine: "postgres", connectionString: "postgres://u:pw@h:5432/db", schema: "team" },
      { home },
    );
    expect(other).toMatch(new RegExp(`^${base}/sqlite-[0-9a-f]{16}$`));
    expect(fleet).toMatch(new RegExp(`^${base}/postgres-[0-9a-f]{16}$`));
    expect(new Set([other, fleet, schema]).size).toBe(3);
    expect(spoolDirectoryFor({ engine: "sqlite", filename: "/tmp/project.db" }, { home })).toBe(other);
    // the password is not part of the name's input: the same server and database, the same spool
    expect(spoolDirectoryFor({ engine: "postgres", connectionString: "postgres://u:new@h:5432/db" }, { home })).toBe(
      fleet,
    );
  });
});
