import { runStoreContract } from "./contract.js";
import { describePostgres } from "./postgres-test-database.js";

describePostgres("postgres store", (database) => {
  runStoreContract({ name: "postgres", create: () => database.createStore() });
});
