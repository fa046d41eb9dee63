import * as z from "zod";

/**
 * The `store` section of toolgate.config.json: where denial records and session state live. Environment variables
 * win over it: TOOLGATE_DATABASE_URL (Postgres), then TOOLGATE_DB (SQLite file). Owned by the store layer; the
 * root schema (config/schema.ts) imports it.
 */
export const storeSchema = z
  .object({
    /** `sqlite` (default), `postgres`, or `memory` (nothing survives the process) */
    engine: z.enum(["sqlite", "postgres", "memory"]).optional(),
    /** SQLite database file (default ~/.toolgate/toolgate.db) */
    path: z.string().min(1).optional(),
    /** Postgres connection string; prefer TOOLGATE_DATABASE_URL so passwords stay out of files */
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must start with postgres:// or postgresql://")
      .optional(),
    /** Postgres schema for toolgate's tables (default: the connection's search_path) */
    schema: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "letters, digits and underscores")
      .optional(),
    /** where records wait while the store is unreachable (default ~/.toolgate/spool) */
    spoolDirectory: z.string().min(1).optional(),
    /** how long SQLite waits for a lock (5000 ms) */
    busyTimeoutMs: z.number().int().positive().max(120_000).optional(),
  })
  .strict();

export type StoreOptions = z.infer<typeof storeSchema>;
