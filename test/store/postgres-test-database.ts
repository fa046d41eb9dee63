import pg from "pg";
import { afterAll, describe } from "vitest";
import type { Store } from "../../src/store/ports.js";
import { createPostgresStore } from "../../src/store/postgres/postgres-store.js";

/**
 * Postgres test database: TOOLGATE_TEST_DATABASE_URL (set by .ci/run). Unset locally → the suites skip with one
 * visible line; unset under CI=true → they fail, because CI must test Postgres. Each store gets its own schema
 * (`toolgate_test_<pid>_<n>`), dropped after the file, so parallel runs never collide.
 */
export const postgresUrl = process.env.TOOLGATE_TEST_DATABASE_URL;
const inCi = process.env.CI === "true";
let counter = 0;

export function describePostgres(name: string, body: (context: PostgresContext) => void): void {
  if (!postgresUrl && !inCi) {
    console.log(`skipping "${name}": TOOLGATE_TEST_DATABASE_URL is not set (CI sets it to a local PostgreSQL)`);
    describe.skip(name, () => body(unreachable));
    return;
  }
  describe(name, () => {
    const schemas: string[] = [];
    afterAll(async () => {
      if (!postgresUrl || schemas.length === 0) return;
      const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
      for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await pool.end();
    });
    body({
      url: () => {
        if (!postgresUrl) throw new Error("CI=true but TOOLGATE_TEST_DATABASE_URL is not set: CI must test Postgres.");
        return postgresUrl;
      },
      newSchema: () => {
        const schema = `toolgate_test_${process.pid}_${++counter}`;
        schemas.push(schema);
        return schema;
      },
      createStore: async (options = {}) => {
        if (!postgresUrl) throw new Error("CI=true but TOOLGATE_TEST_DATABASE_URL is not set: CI must test Postgres.");
        const schema = options.schema ?? `toolgate_test_${process.pid}_${++counter}`;
        if (!options.schema) schemas.push(schema);
        return createPostgresStore({ connectionString: postgresUrl, schema });
      },
    });
  });
}

export interface PostgresContext {
  url: () => string;
  newSchema: () => string;
  createStore: (options?: { schema?: string }) => Promise<Store<unknown>>;
}

const unreachable: PostgresContext = {
  url: () => "",
  newSchema: () => "",
  createStore: async () => {
    throw new Error("skipped");
  },
};
