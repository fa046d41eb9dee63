import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/core/records.js";
import { createLocalFirstStore } from "../../src/store/file/local-first-store.js";
import { createMemoryDenialStore } from "../../src/store/memory-store.js";
import { openStore } from "../../src/store/open-store.js";
import type { DenialStore, Store } from "../../src/store/ports.js";
import { createSpooledDenialStore } from "../../src/store/spooled-denial-store.js";
import { makeRecord } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * Issue 12, class 1: records must survive every store fault. The hook's records go to the local spool first;
 * `drain()` ships them when the store works again. With the real SQLite file and the real Postgres server: the
 * record is spooled, nothing is lost, and after recovery the report shows every record exactly once.
 */
const roots: string[] = [];
const opened: Store[] = [];
const servers: Server[] = [];
const sockets: Socket[] = [];
afterAll(async () => {
  for (const store of opened) await store.close().catch(() => undefined);
  for (const socket of sockets) socket.destroy();
  for (const server of servers) server.close();
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const temporaryRoot = () => {
  const root = mkdtempSync(join(tmpdir(), "toolgate-spool-faults-"));
  roots.push(root);
  return root;
};

/** the hook's store over whatever `env()` selects at each drain, as the composition root will wire it */
function hookStore(options: {
  root: string;
  env: () => Record<string, string | undefined>;
  schema?: string;
  errors: unknown[];
}) {
  return createLocalFirstStore({
    stateDirectory: join(options.root, "state"),
    spoolDirectory: join(options.root, "spool"),
    open: async () => {
      const store = await openStore({ env: options.env(), config: options.schema ? { schema: options.schema } : {} });
      opened.push(store as Store);
      return store.denials;
    },
    timeoutMs: 2_000,
    onError: (error) => options.errors.push(error),
  });
}

const session = (name: string, count: number, epoch = "a") =>
  Array.from({ length: count }, (_, index) =>
    makeRecord({ seq: index + 1, sessionId: name, toolUseId: `toolu_${epoch}_${index + 1}` }),
  );
const event = (sessionId: string): AuditEvent => ({ kind: "nudge.sent", sessionId, turn: 1, at: 7, detail: {} });

/** appends 5 records and an event while the store is broken, checks they wait in the spool, then recovers */
async function outage(options: {
  store: ReturnType<typeof hookStore>;
  errors: unknown[];
  expectedError: RegExp | Record<string, unknown>;
  recover: () => void;
}) {
  const { store, errors } = options;
  const records = session("outage", 5);
  await store.denials.append(records.slice(0, 3));
  await store.denials.append(records.slice(3));
  await store.denials.appendEvents([event("outage")]);
  // the records are visible at once, before any store works
  expect(store.denials.pendingRecords()).toEqual(records);
  const started = Date.now();
  expect(await store.denials.drain()).toEqual({ replayed: 0, failed: 3 });
  expect(Date.now() - started).toBeLessThan(3_000);
  expect(errors.length).toBeGreaterThan(0);
  if (options.expectedError instanceof RegExp) expect(String(errors.at(-1))).toMatch(options.expectedError);
  else expect(errors.at(-1)).toMatchObject(options.expectedError);
  await expect(store.denials.report()).rejects.toBeDefined();
  expect(store.denials.pendingRecords()).toHaveLength(5);

  options.recover();
  // a restarted numbering (the state was lost meanwhile) adds three more records with seq 1..3
  await store.denials.append(session("outage", 3, "b"));
  expect((await store.denials.drain()).failed).toBe(0);
  expect(store.denials.pendingRecords()).toEqual([]);
  await store.denials.drain(); // a second drain finds nothing, duplicates nothing
  const report = await store.denials.report();
  expect(report.total).toBe(8);
  const stored = await store.denials.query({ sessionId: "outage" });
  expect(stored.map((row) => row.toolUseId).sort()).toEqual(
    [...records, ...session("outage", 3, "b")].map((record) => record.toolUseId).sort(),
  );
  expect(await store.denials.queryEvents({ sessionId: "outage" })).toHaveLength(1);
}

describe("SQLite faults: records wait in the spool and arrive exactly once", () => {
  it("TOOLGATE_DB points at a directory", async () => {
    const root = temporaryRoot();
    const database = join(root, "toolgate.db");
    mkdirSync(database);
    const errors: unknown[] = [];
    const store = hookStore({ root, env: () => ({ TOOLGATE_DB: database }), errors });
    await outage({
      store,
      errors,
      expectedError: { code: "STORE_UNAVAILABLE" },
      recover: () => rmSync(database, { recursive: true }),
    });
    await store.close();
  });

  it("TOOLGATE_DB is a corrupt file (recovered the way the error message says: moved aside)", async () => {
    const root = temporaryRoot();
    const database = join(root, "toolgate.db");
    writeFileSync(database, "SQLite format 3\u0000 and then garbage ".repeat(200));
    const errors: unknown[] = [];
    const store = hookStore({ root, env: () => ({ TOOLGATE_DB: database }), errors });
    await outage({
      store,
      errors,
      expectedError: { code: "STORE_CORRUPT" },
      recover: () => renameSync(database, `${database}.broken`),
    });
    await store.close();
  });
});

describePostgres("Postgres faults: records wait in the spool and arrive exactly once", (database) => {
  it("the port is closed (nothing listening)", async () => {
    const root = temporaryRoot();
    const schema = database.newSchema();
    const closedPort = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    let url = `postgres://postgres@127.0.0.1:${closedPort}/test`;
    const errors: unknown[] = [];
    const store = hookStore({
      root,
      env: () => ({ TOOLGATE_DATABASE_URL: url }),
      schema,
      errors,
    });
    await outage({ store, errors, expectedError: /ECONNREFUSED/, recover: () => (url = database.url()) });
    await store.close();
  });

  it("the server accepts connections and never answers", { timeout: 30_000 }, async () => {
    const root = temporaryRoot();
    const schema = database.newSchema();
    const silent = createServer((socket) => void sockets.push(socket));
    servers.push(silent);
    const port = await new Promise<number>((resolve) =>
      silent.listen(0, "127.0.0.1", () => resolve((silent.address() as { port: number }).port)),
    );
    let url = `postgres://postgres@127.0.0.1:${port}/test`;
    const errors: unknown[] = [];
    const store = hookStore({
      root,
      env: () => ({ TOOLGATE_DATABASE_URL: url }),
      schema,
      errors,
    });
    await outage({ store, errors, expectedError: /timed out|timeout/i, recover: () => (url = database.url()) });
    await store.close();
  });
});

describe("delivery is exactly once when a write times out but still commits", () => {
  it("the spooled copy of a late-committing batch is skipped on replay (records and events)", async () => {
    const root = temporaryRoot();
    const backing = createMemoryDenialStore();
    let slow = true; // the first write of each kind commits after the writer gave up on it
    const late: DenialStore = {
      ...backing,
      append: async (records) => {
        if (slow) await new Promise((resolve) => setTimeout(resolve, 150));
        await backing.append(records);
      },
      appendEvents: async (events) => {
        if (slow) await new Promise((resolve) => setTimeout(resolve, 150));
        await backing.appendEvents(events);
      },
    };
    const store = createSpooledDenialStore({
      open: async () => late,
      spoolDirectory: root,
      timeoutMs: 50,
      retryAfterMs: 0,
    });
    await store.append(session("late", 2));
    await store.appendEvents([event("late"), event("late")]);
    slow = false;
    expect(store.pendingRecords()).toHaveLength(2);
    expect(store.pendingEvents()).toHaveLength(2);
    await new Promise((resolve) => setTimeout(resolve, 400)); // both late writes have committed
    await store.replay();
    expect(await backing.query()).toHaveLength(2);
    expect(await backing.queryEvents()).toHaveLength(2);
  });

  it("spool-first appends never open the store (the hook's hot path)", async () => {
    const root = temporaryRoot();
    let opens = 0;
    const store = createLocalFirstStore<{ total: number }>({
      stateDirectory: join(root, "state"),
      spoolDirectory: join(root, "spool"),
      open: async () => {
        opens += 1;
        return createMemoryDenialStore();
      },
    });
    await store.denials.append(session("hot", 3));
    await store.denials.appendEvents([event("hot")]);
    await store.sessions.update("hot", () => ({ total: 3 }));
    expect(opens).toBe(0);
    expect(store.denials.pendingRecords()).toHaveLength(3);
    expect((await store.denials.drain()).replayed).toBe(2);
    expect(opens).toBe(1);
  });
});
