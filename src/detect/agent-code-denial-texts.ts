import type { HostDenialTable } from "./denial-text-rule.js";

/**
 * agent-code (avala-ai/agent-code) `tools/executor.rs` and `query/mod.rs` texts. agent-code is not a toolgate host
 * (no folder under src/hosts/, nothing installs into it): its table is here for library users who run it and pass it
 * to `recognizeDenial` themselves (`toolgate/detect` exports it).
 */
export const AGENT_CODE_DENIAL_TEXTS: HostDenialTable = {
  host: "agent-code",
  rules: [
    { source: "user", pattern: /^Permission denied by user$/, note: "the user answered Deny at the prompt" },
    {
      source: "rule",
      pattern: /^Permission denied: (?<reason>\S[\s\S]*)$/,
      // an OS error can read the same ("Permission denied: '/etc/x'"), so only when the host is known
      requiresHost: true,
      note: "a deny rule or the permission mode",
    },
    { source: "hook", pattern: /^Blocked by pre-tool-use hook: (?<reason>[\s\S]*)$/, note: "pre_tool_use hook veto" },
    {
      source: "mode",
      pattern: /^Plan mode active: only read-only tools are allowed\./,
      note: "plan mode blocks mutations",
    },
  ],
};
