import { openSqlReader } from "../../src/dashboard/server/open-sql-reader.js";
import { describePostgres } from "../store/postgres-test-database.js";
import { dashboardApiContract } from "./dashboard-api-contract.js";

describePostgres("dashboard API on Postgres", (postgres) => {
  dashboardApiContract(async () => {
    const schema = postgres.newSchema();
    const store = await postgres.createStore({ schema });
    const reader = await openSqlReader({ engine: "postgres", connectionString: postgres.url(), schema });
    return {
      store,
      reader,
      close: async () => {
        await reader.close();
        await store.close();
      },
    };
  });
});
