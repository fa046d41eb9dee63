import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * Cline 3.0.65 (the runtime's tool path and the CLI's approval path, read from the shipped binary; the headless one
 * and toolgate's seen in `cline --json` runs): a call that needs approval where nobody can give it, a call a person
 * rejected, a tool disabled by policy, a plugin's refusal. Cline wraps a refused call's text as
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
      source: "rule",
      pattern: /^Tool "[^"\n]+" is disabled by policy$/,
      note: "a tool policy with `enabled: false` (the runtime's own check before approval)",
    },
    {
      source: "hook",
      pattern: /^Tool [^\s]+ was blocked by a runtime hook$/,
      note: "a plugin's `beforeTool` answered `skip` without a reason",
    },
    {
      source: "hook",
      pattern: /^\[toolgate\] (?<reason>[\s\S]*)$/,
      requiresHost: true,
      note: "toolgate's plugin refused the call (`beforeTool` answered `skip`; another plugin's reason is its own text)",
    },
  ],
};
