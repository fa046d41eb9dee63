import type { HostDenialTable } from "../denial-text-rule.js";

/** Gemini CLI 0.61 policy engine and scheduler texts (`functionResponse.response.error`). */
export const GEMINI_DENIAL_TEXTS: HostDenialTable = {
  host: "gemini",
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
  ],
};
