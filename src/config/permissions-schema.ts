import * as z from "zod";
import { parseRule } from "../policy/parse-rule.js";
import { PERMISSION_MODES } from "../policy/policy-types.js";

/** A rule string that parses (`Bash(npm run test *)`); the message says how to write it otherwise. */
export const ruleString = z.string().superRefine((value, context) => {
  try {
    parseRule(value);
  } catch (error) {
    context.addIssue({ code: "custom", message: (error as Error).message });
  }
});

const mode = z.enum(PERMISSION_MODES as [string, ...string[]]);

export const permissionsSchema = z
  .object({
    allow: z.array(ruleString).optional().describe("Claude Code rules that allow a call"),
    ask: z.array(ruleString).optional().describe("Claude Code rules that require approval"),
    deny: z.array(ruleString).optional().describe("Claude Code rules that deny a call"),
    rules: z
      .array(
        z
          .object({
            rule: ruleString,
            behavior: z.enum(["allow", "ask", "deny"]),
            priority: z.number().optional().describe("higher wins before behavior (0 = Claude-style)"),
            interactive: z.boolean().optional().describe("only in interactive (true) or headless (false) sessions"),
            modes: z.array(mode).optional(),
          })
          .strict(),
      )
      .optional()
      .describe(
        "prioritised rules, as `toolgate import <host>` writes them (a host's last-match-wins order or its tiers as priorities)",
      ),
    defaultMode: mode.optional().describe("permission mode when the host names none"),
    neverGrant: z.array(ruleString).optional().describe("calls a session grant may never cover: `Bash(rm *)`"),
    additionalDirectories: z.array(z.string()).optional().describe("more working directories"),
    defaults: z
      .enum(["read-only", "none", "claude-code"])
      .optional()
      .describe(
        "what unmatched calls get: `read-only` (Claude Code's defaults: read-only commands and reads inside the working directories run, the rest asks) or `none` (always ask); `claude-code` is the earlier name of `read-only`",
      ),
  })
  .strict();

export type PermissionsOptions = z.infer<typeof permissionsSchema>;
