import * as z from "zod";

/**
 * The `store` section of toolgate.config.json. Owned by the store layer; the root schema (config/schema.ts) imports it.
 * Starts empty and strict: unknown keys are rejected until the layer defines them.
 */
export const storeSchema = z.object({}).strict();

export type StoreOptions = z.infer<typeof storeSchema>;
