import { writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { ToolgateError } from "../../src/core/errors.js";
import { createMemoryDenialStore } from "../../src/store/memory-store.js";
import type { DenialStore } from "../../src/store/ports.js";
import { createSpooledDenialStore } from "../../src/store/spooled-denial-store.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { makeRecord } from "./fixtures.js";

const temporaryFile = () => join(temporaryDirectory("toolgate-faults-"), "toolgate.db");

describe("SQLite faults (R4)", () => {
  it("retries a locked database with bounded backoff and succeeds once the lock is released", async () => {
    const filename = temporaryFile();
    const store = await createSqliteStore<{ count: number }>({
      filename,
      busyTimeoutMs: 5,
      lockAttempts: 6,
      retryDelayMs: 20,
    });
    const locker = new Database(filename);
    locker.exec("BEGIN IMMEDIATE");
    setTimeout(() => locker.exec("COMMIT"), 60);
    const result = await store.sessions.update("s", () => ({ count: 1 }));
    expect(result.version).toBe(1);
    locker.close();
    await store.close();
  });

  it("gives up after the bounded attempts while the lock is held", async () => {
    const filename = temporaryFile();
    const store = await createSqliteStore({ filename, busyTimeoutMs: 5, lockAttempts: 3, retryDelayMs: 5 });
    const locker = new Database(filename);
    locker.exec("BEGIN IMMEDIATE");
    await expect(store.denials.append([makeRecord({ seq: 1 })])).rejects.toMatchObject({ code: "SQLITE_BUSY" });
    locker.exec("ROLLBACK");
    locker.close();
    await store.denials.append([makeRecord({ seq: 1 })]);
    expect(await store.denials.query()).toHaveLength(1);
    await store.close();
  });

  it("names the file and the fix when the database is corrupt", async () => {
    const filename = temporaryFile();
    writeFileSync(filename, "this is not a database, it is a shopping list\n".repeat(100));
    const error = await createSqliteStore({ filename }).catch((caught: unknown) => caught);
    expect(ToolgateError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: "STORE_CORRUPT" });
    expect((error as Error).message).toContain(filename);
    expect((error as Error).message).toContain(`mv "${filename}"`);
  });

  it("refuses a database written by a newer toolgate, naming the file and the fix", async () => {
    const filename = temporaryFile();
    await (await createSqliteStore({ filename })).close();
    const raw = new Database(filename);
    raw
      .prepare("INSERT INTO toolgate_migrations (id, name, checksum, applied_at) VALUES (999, 'future', 'x', 'now')")
      .run();
    raw.close();
    const error = await createSqliteStore({ filename }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "STORE_VERSION" });
    expect((error as Error).message).toContain(filename);
    expect((error as Error).message).toContain("Upgrade toolgate");
  });

  it("creates the database and its directory on first use, and reopens it with the data", async () => {
    const filename = join(temporaryDirectory("toolgate-faults-"), "nested", "dir", "toolgate.db");
    const first = await createSqliteStore({ filename });
    await first.denials.append([makeRecord({ seq: 1 })]);
    await first.close();
    const second = await createSqliteStore({ filename });
    expect(await second.denials.query()).toHaveLength(1);
    expect(second.location).toBe(`sqlite:${filename}`);
    await second.close();
  });
});

describe("outage: an unreachable store never loses a record", () => {
  it("spools while the store is down and replays everything, exactly once, when it is back", async () => {
    const spoolDirectory = temporaryDirectory("toolgate-spool-");
    const backing = createMemoryDenialStore();
    let down = true;
    const errors: unknown[] = [];
    const store = createSpooledDenialStore({
      open: async (): Promise<DenialStore> => {
        if (down) throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
        return backing;
      },
      spoolDirectory,
      retryAfterMs: 0,
      onError: (error) => errors.push(error),
    });
    const sent = Array.from({ length: 30 }, (_, index) => makeRecord({ seq: index + 1 }));
    for (const chunk of [sent.slice(0, 10), sent.slice(10, 20)]) await store.append(chunk);
    await store.appendEvents([{ kind: "nudge.sent", sessionId: "session-a", turn: 1, at: 5, detail: {} }]);
    expect(errors).toHaveLength(3);
    expect(store.spool.pending()).toHaveLength(3);
    expect(await backing.query()).toHaveLength(0);

    down = false;
    // A record the store got directly and also through the spool must not appear twice.
    await store.append([sent[9]!, ...sent.slice(20)]);
    const stored = await backing.query();
    expect(stored.map((record) => record.seq).sort((a, b) => a - b)).toEqual(sent.map((record) => record.seq));
    expect(await backing.queryEvents()).toHaveLength(1);
    expect(store.spool.pending()).toHaveLength(0);
  });

  it("spools a write that hangs past the timeout instead of waiting for it", async () => {
    const spoolDirectory = temporaryDirectory("toolgate-spool-");
    const hanging: DenialStore = {
      ...createMemoryDenialStore(),
      append: () => new Promise(() => undefined),
    };
    const store = createSpooledDenialStore({ open: async () => hanging, spoolDirectory, timeoutMs: 50 });
    await store.append([makeRecord({ seq: 1 })]);
    expect(store.spool.pending()).toEqual([{ kind: "denials", records: [makeRecord({ seq: 1 })] }]);
  });
});
