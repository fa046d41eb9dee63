import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { createSqliteStore } from "./sqlite-store.js";

const mode = (path: string) => statSync(path).mode & 0o777;

describe("a new SQLite store is this user's alone", () => {
  it("creates its folders 0700 and the database and its -wal and -shm files 0600, as the state and spool folders are", async () => {
    const root = temporaryDirectory("toolgate-sqlite-mode-");
    const filename = join(root, ".toolgate", "nested", "toolgate.db");
    const store = await createSqliteStore({ filename });
    // WAL's side files exist while the database is open, with the mode SQLite copies from the database file
    await store.denials.appendEvents([{ kind: "nudge.sent", sessionId: "s", turn: 1, at: 1, detail: {} }]);
    expect(mode(`${filename}-wal`)).toBe(0o600);
    expect(mode(`${filename}-shm`)).toBe(0o600);
    await store.close();
    expect(mode(join(root, ".toolgate"))).toBe(0o700);
    expect(mode(join(root, ".toolgate", "nested"))).toBe(0o700);
    expect(mode(filename)).toBe(0o600);
  });
});
