import type { DenialSource } from "../../core/events.js";
import type { HostDenialTable } from "../../detect/denial-text-rule.js";

/** Claude's `reason_type` / `decision_reason_type` and `non_execution_kind` values -> source */
const CLAUDE_REASON_TYPES: Readonly<Record<string, DenialSource>> = {
  rule: "rule",
  subcommandResults: "rule",
  hook: "hook",
  mode: "mode",
  classifier: "classifier",
  asyncAgent: "headless",
  "permission-rule": "rule",
  "user-rejected": "user",
  "automode-blocked": "classifier",
  "automode-unavailable": "classifier",
};

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/**
 * Claude's undocumented per-call meta: the most complete signal when present. Understood keys: the
 * `tool_result_meta` entry's `permission_decision` (`{decision, source, reason_type}`), `non_execution_kind`, and
 * the event's `decisionReasonType` / `decision_reason_type`.
 */
function sourceFromClaudeMetadata(metadata: Readonly<Record<string, unknown>>): DenialSource | undefined {
  const decision = record(metadata["permission_decision"]);
  const reasonType =
    text(decision?.["reason_type"]) ?? text(metadata["decisionReasonType"]) ?? text(metadata["decision_reason_type"]);
  if (decision !== undefined && decision["decision"] !== "reject") return undefined;
  const byType = reasonType === undefined ? undefined : CLAUDE_REASON_TYPES[reasonType];
  if (byType !== undefined) return byType;
  const kind = text(metadata["non_execution_kind"]);
  const byKind = kind === undefined ? undefined : CLAUDE_REASON_TYPES[kind];
  if (byKind !== undefined) return byKind;
  if (decision === undefined) return undefined;
  const source = text(decision["source"]);
  if (source === "user_reject") return "user";
  if (source === "hook") return "hook";
  return "rule";
}

/**
 * Claude Code 2.1.x / Agent SDK 0.3.330 tool-result texts per denial source (research: claude-sdk.md section 4.2).
 * The SDK `canUseTool` and PermissionRequest-hook denials send the caller's message verbatim: those are recognised
 * from `metadata` (`tool_result_meta[].permission_decision`), not from the text. Claude wraps a refusal in
 * `<tool_use_error>...</tool_use_error>`, often with an `Error: ` prefix; `normalizeDenialText` unwraps both first.
 * The Agent SDK runs Claude Code, so its tool results read the same (`claude-agent-sdk` is an alias).
 */
export const CLAUDE_CODE_DENIAL_TEXTS: HostDenialTable = {
  host: "claude-code",
  aliases: ["claude", "claude-agent-sdk"],
  sourceFromMetadata: sourceFromClaudeMetadata,
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
