import pg from "pg";
import { expect, it } from "vitest";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";
import { describePostgres } from "./postgres-test-database.js";

/**
 * Issue 12, class 4: a Postgres row lock held by another transaction must not hold a decision. The store's
 * `lock_timeout` (1.5 s by default) turns the wait into an error the guard answers fail-closed.
 */
describePostgres("Postgres waits are bounded", (database) => {
  it("a session-state row locked by another transaction fails the update within the lock timeout", {
    timeout: 20_000,
  }, async () => {
    const schema = database.newSchema();
    const store = await createPostgresStore<{ count: number }>({
      connectionString: database.url(),
      schema,
      lockTimeoutMs: 500,
    });
    await store.sessions.update("locked", () => ({ count: 1 }));
    const holder = new pg.Client({ connectionString: database.url(), options: `-c search_path=${schema}` });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query("SELECT * FROM session_state WHERE session_id = 'locked' FOR UPDATE");
      const started = Date.now();
      const error = await store.sessions
        .update("locked", () => ({ count: 2 }))
        .then(
          () => undefined,
          (caught: unknown) => caught,
        );
      const waited = Date.now() - started;
      expect(error).toMatchObject({ code: "55P03" }); // lock_not_available
      expect(waited).toBeGreaterThanOrEqual(450);
      expect(waited).toBeLessThan(3_000);
      await holder.query("ROLLBACK");
      expect((await store.sessions.get("locked"))?.state).toEqual({ count: 1 });
      expect((await store.sessions.update("locked", () => ({ count: 2 }))).version).toBe(2);
    } finally {
      await holder.end();
      await store.close();
    }
  });
});
