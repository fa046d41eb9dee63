import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Gemini CLI 0.61 policy engine and scheduler texts (`functionResponse.response.error`); the response may arrive as
 * its JSON, `{"error": "..."}` or `{"error": {"message": "..."}}`, which `normalizeDenialText` unwraps first.
 *
 * Beside these texts, a command refused by Gemini CLI's sandbox fails with the OS's own words: the OS-denial keyword
 * lists (`src/detect/os-denial-patterns.ts`) cover Gemini CLI's `parsePosixSandboxDenials`, and since Gemini CLI
 * runs shell commands through /usr/bin/bash, a refusal reads `/usr/bin/bash: line 4: ./x.sh: Permission denied`.
 */
export const GEMINI_DENIAL_TEXTS: HostDenialTable = {
  host: "gemini",
  aliases: ["gemini-cli"],
  rules: [
    {
      source: "rule",
      pattern: /^Tool execution denied by policy\.(?: (?<reason>[\s\S]+))?$/,
      note: "policy DENY, with the rule's denyMessage when set",
    },
    {
      source: "headless",
      pattern:
        /^Tool execution for "[^"\n]+" requires user confirmation, which is not supported in non-interactive mode\.?$/,
      note: "ask_user in a non-interactive run",
    },
    { source: "hook", pattern: /^Tool execution blocked: (?<reason>[\s\S]*)$/, note: "BeforeTool hook deny" },
    { source: "sandbox", pattern: /^Sandbox expansion required$/, note: "shell tool refused by the sandbox" },
    {
      // packages/core/src/utils/planUtils.ts PlanErrorMessages.PATH_ACCESS_DENIED (0.61): a plan file outside the
      // plans directory is refused whatever the policy says; no allow rule changes it
      source: "validation",
      pattern:
        /^Access denied: plan path \((?<path>[^\n]*)\) must be within the designated plans directory \([^\n]*\)\.$/,
      note: "a plan path outside the plans directory",
    },
  ],
};
