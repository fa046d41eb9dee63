import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { createSqliteStore } from "./sqlite-store.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("a new SQLite store is this user's alone", () => {
  it("creates its folders 0700 and the database 0600, as the state and spool folders are", async () => {
    const root = temporaryDirectory("toolgate-sqlite-mode-");
    const filename = join(root, ".toolgate", "nested", "toolgate.db");
    const store = await createSqliteStore({ filename });
    await store.close();
    expect(mode(join(root, ".toolgate"))).toBe(0o700);
    expect(mode(join(root, ".toolgate", "nested"))).toBe(0o700);
    expect(mode(filename)).toBe(0o600);
  });
});
