import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/store/fixtures.js";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { openLocalFirstStore } from "./file/open-local-first-store.js";
import { createMemoryDenialStore } from "./memory-store.js";
import { createSpooledDenialStore } from "./spooled-denial-store.js";

describe("spooled denial store: a session's files", () => {
  it("tags a batch file with its one session (or as events), so a session's read skips the other files", async () => {
    const spoolDirectory = join(temporaryDirectory("toolgate-spooled-"), "spool");
    const store = createMemoryDenialStore();
    const denials = createSpooledDenialStore({ open: async () => store, spoolDirectory, mode: "spool-first" });
    await denials.append([makeRecord({ seq: 1 }), makeRecord({ seq: 2 })]);
    await denials.append([makeRecord({ seq: 1, sessionId: "session-b" })]);
    await denials.append([makeRecord({ seq: 3 }), makeRecord({ seq: 2, sessionId: "session-b" })]);
    await denials.appendEvents([{ kind: "grant.offered", sessionId: "session-a", turn: 1, at: 1, detail: {} }]);
    const tags = readdirSync(spoolDirectory)
      .map((name) => /\.([a-z0-9]+)\.jsonl$/.exec(name)?.[1] ?? "none")
      .sort();
    expect(tags.filter((tag) => tag.startsWith("s"))).toHaveLength(2);
    expect(new Set(tags.filter((tag) => tag.startsWith("s"))).size).toBe(2);
    expect(tags.filter((tag) => !tag.startsWith("s"))).toEqual(["e", "none"]);
    // session-a's records: its own file and the file of two sessions; the rest is not read
    const rows = await denials.sessionRecords("session-a");
    expect(rows.map((row) => [row.sessionId, row.seq, row.id])).toEqual([
      ["session-a", 1, 0],
      ["session-a", 2, 0],
      ["session-a", 3, 0],
    ]);
    expect((await denials.sessionRecords("session-b")).map((row) => row.seq)).toEqual([1, 2]);
    // every batch still ships, tag or none
    await denials.drain();
    expect((await store.query({})).length).toBe(5);
  });

  it("answers a session's read from the spool alone, unopened, while the store holds nothing yet", async () => {
    let opened = 0;
    const store = createMemoryDenialStore();
    let empty = true;
    const denials = createSpooledDenialStore({
      open: async () => {
        opened += 1;
        return store;
      },
      holdsNothing: () => empty,
      spoolDirectory: join(temporaryDirectory("toolgate-spooled-"), "spool"),
      mode: "spool-first",
    });
    await denials.append([makeRecord({ seq: 1 })]);
    expect((await denials.sessionRecords("session-a")).map((row) => row.seq)).toEqual([1]);
    expect(opened).toBe(0);
    await store.append([makeRecord({ seq: 2 })]);
    empty = false;
    expect((await denials.sessionRecords("session-a")).map((row) => row.seq)).toEqual([2, 1]);
    expect(opened).toBe(1);
  });

  it("a hook's first read in a new home does not create the SQLite database", async () => {
    const home = temporaryDirectory("toolgate-spooled-home-");
    const filename = join(home, "toolgate.db");
    const local = openLocalFirstStore({ env: { TOOLGATE_DB: filename }, home });
    try {
      await local.denials.append([makeRecord({ seq: 1 })]);
      expect((await local.denials.sessionRecords("session-a")).map((row) => row.seq)).toEqual([1]);
      expect(existsSync(filename)).toBe(false);
      await local.denials.drain();
      expect(existsSync(filename)).toBe(true);
      expect((await local.denials.sessionRecords("session-a")).map((row) => [row.seq, row.id > 0])).toEqual([
        [1, true],
      ]);
    } finally {
      await local.close();
    }
  });
});
