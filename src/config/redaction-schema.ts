import * as z from "zod";

/**
 * The `redaction` section of toolgate.config.json. Owned by the redaction layer; the root schema (config/schema.ts) imports it.
 * Starts empty and strict: unknown keys are rejected until the layer defines them.
 */
export const redactionSchema = z.object({}).strict();

export type RedactionOptions = z.infer<typeof redactionSchema>;
