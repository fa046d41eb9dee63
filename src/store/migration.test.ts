import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { checkApplied, migrationChecksum } from "./migration.js";
import { postgresMigrations } from "./postgres/migrations/index.js";
import { sqliteMigrations } from "./sqlite/migrations/index.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

describe("migrations", () => {
  it.each([
    ["sqlite", sqliteMigrations],
    ["postgres", postgresMigrations],
  ])("each %s migration's written-out checksum is the SHA-256 of its SQL (edit the SQL, and this fails)", (_, list) => {
    for (const migration of list) {
      expect({ id: migration.id, checksum: migrationChecksum(migration) }).toEqual({
        id: migration.id,
        checksum: sha256(migration.sql),
      });
    }
    expect(list.map((migration) => migration.id)).toEqual(list.map((_, index) => index + 1));
  });

  it("refuses a database that recorded another checksum, or a migration this build does not know", () => {
    const [first] = sqliteMigrations;
    const applied = (checksum: string, id = 1) => [{ id, name: "init", checksum }];
    expect(() =>
      checkApplied({ applied: applied(sha256(first!.sql)), migrations: sqliteMigrations, location: "db" }),
    ).not.toThrow();
    expect(() =>
      checkApplied({ applied: applied(sha256(`${first!.sql} `)), migrations: sqliteMigrations, location: "db" }),
    ).toThrow(/different checksum/);
    expect(() => checkApplied({ applied: applied("x", 99), migrations: sqliteMigrations, location: "db" })).toThrow(
      /written by a newer version/,
    );
  });
});
