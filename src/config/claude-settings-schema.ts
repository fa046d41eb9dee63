import * as z from "zod";

/** The `claudeSettings` section: whether and how the Claude Code settings hierarchy is read. */
export const claudeSettingsSchema = z
  .object({
    enabled: z
      .boolean()
      .optional()
      .describe("read .claude/settings*.json, ~/.claude/settings.json, managed settings (true)"),
    workspaceTrust: z
      .enum(["auto", "trusted", "untrusted"])
      .optional()
      .describe(
        'untrusted: ignore project .claude/settings.json allow entries, as Claude Code does before the trust dialog; auto: read the trust flag from ~/.claude.json ("auto")',
      ),
    managedSettingsPath: z
      .string()
      .optional()
      .describe("managed settings file (default: Claude Code's system-wide managed-settings.json in /etc)"),
  })
  .strict();

export type ClaudeSettingsOptions = z.infer<typeof claudeSettingsSchema>;
