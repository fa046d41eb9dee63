import { expect, it } from "vitest";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { createSpooledDenialStore } from "../../src/store/spooled-denial-store.js";
import { temporaryDirectory } from "../support/temporary-directory.js";
import { runStoreContract } from "./contract.js";
import { makeRecord } from "./fixtures.js";
import { describePostgres } from "./postgres-test-database.js";

describePostgres("postgres store", (database) => {
  runStoreContract({ name: "postgres", create: () => database.createStore() });

  it("loses nothing across a real outage: refused connections spool, the next write replays", async () => {
    const schema = database.newSchema();
    const working = database.url();
    const refused = working.replace(/:\d+\//, ":1/");
    let url = refused;
    const store = createSpooledDenialStore({
      open: async () => (await createPostgresStore({ connectionString: url, schema, connectTimeoutMs: 1_000 })).denials,
      spoolDirectory: temporaryDirectory("toolgate-spool-"),
      retryAfterMs: 0,
    });
    const sent = Array.from({ length: 12 }, (_, index) => makeRecord({ seq: index + 1, sessionId: "outage" }));
    await store.append(sent.slice(0, 4));
    await store.append(sent.slice(4, 8));
    expect(store.spool.pending()).toHaveLength(2);
    url = working;
    await store.append(sent.slice(8));
    const stored = await store.query({ sessionId: "outage" });
    expect(stored.map((record) => record.seq).sort((a, b) => a - b)).toEqual(sent.map((record) => record.seq));
    expect(store.spool.pending()).toHaveLength(0);
    expect((await store.report()).total).toBe(12);
    await store.close();
  });
});
