import * as z from "zod";
import { auditSchema } from "./audit-schema.js";
import { claudeSettingsSchema } from "./claude-settings-schema.js";
import { escalationSchema } from "./escalation-schema.js";
import { permissionsSchema } from "./permissions-schema.js";
import { redactionSchema } from "./redaction-schema.js";
import { storeSchema } from "./store-schema.js";

/** The root of toolgate.config.json / .toolgate.json. Every section is optional; unknown keys are errors. */
export const configSchema = z
  .object({
    $schema: z.string().optional(),
    permissions: permissionsSchema.optional(),
    escalation: escalationSchema.optional(),
    claudeSettings: claudeSettingsSchema.optional(),
    audit: auditSchema.optional(),
    store: storeSchema.optional(),
    redaction: redactionSchema.optional(),
  })
  .strict();

export type ToolgateConfig = z.infer<typeof configSchema>;
