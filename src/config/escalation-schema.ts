import * as z from "zod";
import { CORE_OPTION_LIMITS } from "../core/compile-config.js";
import type { CoreOptions, TemplateName } from "../core/config.js";
import { DEFAULT_TEMPLATES } from "../core/templates.js";
import { TOOL_FAMILY_NAMES } from "../core/tool-families.js";

/**
 * The `escalation` section: mirrors `CoreOptions` (src/core/config.ts) field for field; a compile-time check below
 * fails the build if the two drift apart, and a property test (escalation-schema.property.test.ts) proves that every
 * value accepted here compiles with `compileCoreConfig`.
 */
const headlessStrategy = z.enum(["fallback", "skip", "abort"]);
const positiveInteger = z.number().int().positive();
const level = z.union([positiveInteger, z.literal(false)]);

const templateNames = Object.keys(DEFAULT_TEMPLATES) as TemplateName[];
const templatesShape = Object.fromEntries(templateNames.map((name) => [name, z.string().optional()])) as Record<
  TemplateName,
  z.ZodOptional<z.ZodString>
>;

export const escalationSchema = z
  .object({
    thresholds: z
      .array(
        z
          .object({
            tool: z.string().min(1).describe("tool-name glob: `*` any run of characters, `?` one character"),
            threshold: positiveInteger.optional(),
            headlessStrategy: headlessStrategy.optional(),
          })
          .strict(),
      )
      .optional()
      .describe("denials of one pattern that trigger escalation, per tool-name glob"),
    defaultThreshold: positiveInteger.optional().describe("threshold when no glob matches (3)"),
    familyThresholds: z
      .object(Object.fromEntries(TOOL_FAMILY_NAMES.map((family) => [family, positiveInteger.optional()])))
      .strict()
      .optional()
      .describe("threshold per tool family (shell, read, search, edit, web, mcp, other); thresholds globs come first"),
    hardMultiplier: z.number().min(1).optional().describe("the hard stage, as a multiple of the threshold (2)"),
    totalThreshold: positiveInteger
      .optional()
      .describe("denials of one pattern in a session, allowed calls in between or not, that escalate (20)"),
    headlessStrategy: headlessStrategy.optional().describe('what a headless session does at the threshold ("abort")'),
    alternatives: z.record(z.string(), z.array(z.string())).optional().describe("alternatives to name, per tool glob"),
    grantWholeTool: z.boolean().optional().describe("whether a grant may cover the whole tool (false)"),
    recordBufferSize: positiveInteger
      .max(CORE_OPTION_LIMITS.recordBufferSize)
      .optional()
      .describe("denial records a session keeps (100)"),
    sessionTreeBudget: positiveInteger.optional().describe("cap on denials across a session and its subagents"),
    nudge: z
      .object({
        threshold: positiveInteger.optional(),
        cooldownMs: z.number().int().nonnegative().optional(),
        hourlyCap: z.number().int().nonnegative().optional().describe("nudges per rolling hour (3; 0: none)"),
        enabled: z.boolean().optional(),
      })
      .strict()
      .optional(),
    loop: z
      .object({
        observe: level.optional(),
        steer: level.optional(),
        block: level.optional(),
        stop: positiveInteger.max(CORE_OPTION_LIMITS.loopStop).optional(),
        sameErrorSteer: positiveInteger.optional(),
        maxCycleLength: positiveInteger.max(CORE_OPTION_LIMITS.maxCycleLength).optional(),
        exemptTools: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    templates: z.object(templatesShape).strict().optional().describe("replacement texts by template name"),
  })
  .strict();

export type EscalationOptions = z.infer<typeof escalationSchema>;

/** Compile-time proof that the schema's output is exactly assignable both ways to CoreOptions. */
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const mirrorsCoreOptions: Exactly<Required<EscalationOptions>["thresholds"], Required<CoreOptions>["thresholds"]> &
  Exactly<keyof EscalationOptions, keyof CoreOptions> = true;
void mirrorsCoreOptions;
