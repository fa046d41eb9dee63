import * as z from "zod";

/**
 * The `audit` section of toolgate.config.json. Owned by the audit layer; the root schema (config/schema.ts) imports it.
 * Starts empty and strict: unknown keys are rejected until the layer defines them.
 */
export const auditSchema = z.object({}).strict();

export type AuditOptions = z.infer<typeof auditSchema>;
