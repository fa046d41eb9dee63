/** `toolgate/store/postgres`: the shared store for teams and CI, selected by TOOLGATE_DATABASE_URL. */
export { postgresMigrations } from "./migrations/index.js";
export { createPostgresStore, type PostgresStoreOptions } from "./postgres-store.js";
