import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeRecord } from "../../test/store/fixtures.js";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { createMemoryDenialStore } from "../store/memory-store.js";
import type { DenialStore } from "../store/ports.js";
import { createSpooledDenialStore } from "../store/spooled-denial-store.js";
import { withPendingRecords } from "./local-first-state.js";

/** A spool-first denial store over a memory store that counts its appends (what a drain ships). */
function spooledOver(open: () => Promise<DenialStore>) {
  return createSpooledDenialStore({
    open,
    spoolDirectory: join(temporaryDirectory("toolgate-local-first-"), "spool"),
    mode: "spool-first",
  });
}

function countingStore() {
  const store = createMemoryDenialStore();
  const counts = { appends: 0 };
  const append = store.append.bind(store);
  store.append = async (records) => {
    counts.appends += 1;
    await append(records);
  };
  return { store, counts };
}

describe("withPendingRecords (the guard's read of recorded calls on the hook path)", () => {
  it("reads a session's records from the store and the spool without shipping the spool", async () => {
    const { store, counts } = countingStore();
    await store.append([makeRecord({ seq: 1 })]);
    counts.appends = 0;
    const denials = spooledOver(async () => store);
    await denials.append([makeRecord({ seq: 2 }), makeRecord({ seq: 1, sessionId: "session-b" })]);
    const rows = await withPendingRecords(denials, undefined).query({ sessionId: "session-a" });
    expect(rows.map((row) => row.seq).sort()).toEqual([1, 2]);
    expect(counts.appends).toBe(0);
    expect(denials.spool.hasPending()).toBe(true);
  });

  it("drains first for any other query, as the store's own query does", async () => {
    const { store, counts } = countingStore();
    const denials = spooledOver(async () => store);
    await denials.append([makeRecord({ seq: 1 })]);
    const rows = await withPendingRecords(denials, undefined).query({ sessionId: "session-a", limit: 10 });
    expect(rows.map((row) => row.seq)).toEqual([1]);
    expect(counts.appends).toBe(1);
    expect(denials.spool.hasPending()).toBe(false);
  });

  it("answers from the spool alone when the store cannot be opened, and says why", async () => {
    const denials = spooledOver(async () => {
      throw new Error("database is locked");
    });
    await denials.append([makeRecord({ seq: 1 }), makeRecord({ seq: 1, sessionId: "session-b" })]);
    const errors: string[] = [];
    const rows = await withPendingRecords(denials, (error, where) =>
      errors.push(`${where}: ${(error as Error).message}`),
    ).query({ sessionId: "session-a" });
    expect(rows.map((row) => [row.sessionId, row.seq, row.id])).toEqual([["session-a", 1, 0]]);
    expect(errors).toEqual(["denial store (reading the spool instead): database is locked"]);
  });
});
