import type { Migration } from "../../migration.js";
import { migration0001 } from "./0001-init.js";

/** SQLite migrations in order. Append only. */
export const sqliteMigrations: readonly Migration[] = [migration0001];
