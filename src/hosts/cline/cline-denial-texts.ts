import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Cline 3.0.65 (the CLI's approval path, read from the shipped binary and seen in `cline --json` runs): a call that
 * needs approval where nobody can give it, and a call a person rejected. Cline wraps a refused call's text as
 * `{"error": "<text>"}` in the tool result; the readers unwrap it first (`clineErrorText`).
 */
export const CLINE_DENIAL_TEXTS: HostDenialTable = {
  host: "cline",
  rules: [
    {
      source: "headless",
      pattern:
        /^Tool "[^"\n]+" requires approval in a TTY session -- NOT a tool or system failure\. Clarify with user before proceeding\.$/,
      note: "`cline --auto-approve false` without a terminal: the approval nobody can give",
    },
    {
      source: "user",
      pattern: /^This tool call was rejected by the user and not executed\./,
      note: "a person rejected the call at Cline's approval prompt (no reason given)",
    },
    {
      source: "user",
      pattern: /^(?<reason>[\s\S]*?) -- NOT a tool or system failure\. Clarify with user before proceeding\.$/,
      requiresHost: true,
      note: "a person rejected the call with a reason (Cline appends its own sentence)",
    },
    {
      source: "hook",
      pattern: /^\[toolgate\] (?<reason>[\s\S]*)$/,
      requiresHost: true,
      note: "toolgate's plugin refused the call (`beforeTool` answered `skip`; another plugin's reason is its own text)",
    },
  ],
};
