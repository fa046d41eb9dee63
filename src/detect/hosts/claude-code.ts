import type { HostDenialTable } from "../denial-text-rule.js";

/**
 * Claude Code 2.1.x / Agent SDK 0.3.330 tool-result texts per denial source (research: claude-sdk.md section 4.2).
 * The SDK `canUseTool` and PermissionRequest-hook denials send the caller's message verbatim: those are recognised
 * from `metadata` (`tool_result_meta[].permission_decision`), not from the text.
 */
export const CLAUDE_CODE_DENIAL_TEXTS: HostDenialTable = {
  host: "claude-code",
  rules: [
    {
      source: "rule",
      pattern: /^Permission to use \S+ with command [\s\S]+ has been denied\.$/,
      note: "Bash deny rule",
    },
    { source: "rule", pattern: /^\S+ denied access to domain:\S+\.$/, note: "WebFetch domain deny rule" },
    {
      source: "rule",
      pattern: /^File is in a directory that is denied by your permission settings\.$/,
      note: "Read/Edit/Write path deny rule",
    },
    {
      source: "rule",
      pattern: /^No such tool available: (\S+)\. \1 is disabled for this session/,
      note: "bare-tool deny rule: the tool is removed from the session",
    },
    {
      source: "mode",
      pattern: /^Permission to use \S+ has been denied because Claude Code is running in don't ask mode\./,
      note: "dontAsk permission mode",
    },
    {
      source: "headless",
      pattern:
        /^Permission for this tool use was denied\. It requires approval, and this session has no approval surface/,
      note: "--permission-prompts none",
    },
    {
      source: "headless",
      pattern: /^\S+ in '[^'\n]*' (?:needs approval\.|was blocked\. For security, Claude Code may only)/,
      note: "headless ask: path-based ask reason",
    },
    { source: "headless", pattern: /^This command requires approval\.?$/, note: "headless ask: generic ask reason" },
    {
      source: "headless",
      pattern:
        /^Claude requested permissions to (?:use|read from|write to|edit) [\s\S]{1,500}, but you haven't granted it yet\.$/,
      note: "headless ask: ask rule",
    },
    {
      source: "user",
      pattern: /^The user doesn't want to (?:proceed with this tool use|take this action right now)\./,
      note: "user rejected at the prompt, or a canUseTool / PermissionRequest deny with interrupt",
    },
    { source: "user", pattern: /^\[Request interrupted by user for tool use\]$/, note: "interrupt marker" },
    {
      source: "hook",
      pattern: /^PreToolUse:\S+ hook error: (?:\[[^\]\n]{1,500}\]: )?(?<reason>[\s\S]*)$/,
      note: "PreToolUse hook deny (JSON) or exit code 2 (with the hook command in brackets)",
    },
    {
      source: "classifier",
      pattern:
        /^Permission for this action was denied by the Claude Code auto mode classifier\.(?: Reason: (?<reason>[^\n]*?)\.?(?: |$))?/,
      note: "auto-mode classifier block",
    },
    { source: "classifier", pattern: /^Auto mode is unavailable: /, note: "auto mode without its server-side check" },
    { source: "validation", pattern: /^InputValidationError: /, note: "input rejected before running" },
  ],
};
