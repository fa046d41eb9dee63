import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/**
 * pi 1.6.0 has no permission system: every refusal is an extension's `tool_call` answer `{ block: true, reason }`,
 * shown to the model verbatim (`pi-agent-core` `agent-loop.js`), or pi's own text when the extension gave no reason
 * or threw. toolgate's own refusals are recorded by its extension; in a transcript they read as a hook's.
 */
export const PI_DENIAL_TEXTS: HostDenialTable = {
  host: "pi",
  rules: [
    {
      source: "rule",
      pattern: /^\[toolgate\] Denied by rule (?<reason>[\s\S]*)$/,
      requiresHost: true,
      note: "toolgate's extension: a toolgate deny rule (pi has no rules of its own)",
    },
    {
      source: "hook",
      pattern: /^\[toolgate\] (?<reason>[\s\S]*)$/,
      requiresHost: true,
      note: "toolgate's extension: an escalated refusal, a headless ask, a stop",
    },
    {
      source: "hook",
      pattern: /^Tool execution was blocked$/,
      requiresHost: true,
      note: "an extension's `tool_call` answer `{ block: true }` without a reason",
    },
    {
      source: "hook",
      pattern: /^Extension failed, blocking execution: (?<reason>[\s\S]*)$/,
      note: "an extension's `tool_call` handler threw a non-Error value (pi blocks the call)",
    },
  ],
};
