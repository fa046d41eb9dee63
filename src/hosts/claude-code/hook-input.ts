import { readHookEnvelope } from "../common/hook-envelope.js";

/**
 * The JSON Claude Code writes to a command hook's stdin (2.1.330), for the events toolgate handles. Recorded
 * payloads live in test/fixtures/claude-code/. Only the fields toolgate reads are listed; the rest pass untouched.
 */
export interface ClaudeHookBase {
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  permission_mode?: string;
  /** set when a subagent made the call */
  agent_id?: string;
  agent_type?: string;
}

export interface ClaudePreToolUseInput extends ClaudeHookBase {
  hook_event_name: "PreToolUse";
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
}

/** Note: no `tool_use_id` (the adapter finds it in the transcript tail). */
export interface ClaudePermissionRequestInput extends ClaudeHookBase {
  hook_event_name: "PermissionRequest";
  tool_name: string;
  tool_input: unknown;
  permission_suggestions?: unknown[];
}

export interface ClaudePostToolUseInput extends ClaudeHookBase {
  hook_event_name: "PostToolUse";
  tool_name: string;
  tool_input: unknown;
  tool_response: unknown;
  tool_use_id: string;
}

export interface ClaudePostToolUseFailureInput extends ClaudeHookBase {
  hook_event_name: "PostToolUseFailure";
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  error: string;
  is_interrupt?: boolean;
}

export interface ClaudePermissionDeniedInput extends ClaudeHookBase {
  hook_event_name: "PermissionDenied";
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  reason: string;
}

export interface ClaudeUserPromptSubmitInput extends ClaudeHookBase {
  hook_event_name: "UserPromptSubmit";
  prompt?: string;
}

export interface ClaudeStopInput extends ClaudeHookBase {
  hook_event_name: "Stop";
  stop_hook_active?: boolean;
}

export interface ClaudeSubagentStartInput extends ClaudeHookBase {
  hook_event_name: "SubagentStart";
  agent_id: string;
  agent_type?: string;
}

export interface ClaudeSubagentStopInput extends ClaudeHookBase {
  hook_event_name: "SubagentStop";
  agent_id: string;
  agent_transcript_path?: string;
}

export interface ClaudeSessionStartInput extends ClaudeHookBase {
  hook_event_name: "SessionStart";
  source?: string;
}

export interface ClaudeSessionEndInput extends ClaudeHookBase {
  hook_event_name: "SessionEnd";
  reason?: string;
}

export type ClaudeHookInput =
  | ClaudePreToolUseInput
  | ClaudePermissionRequestInput
  | ClaudePostToolUseInput
  | ClaudePostToolUseFailureInput
  | ClaudePermissionDeniedInput
  | ClaudeUserPromptSubmitInput
  | ClaudeStopInput
  | ClaudeSubagentStartInput
  | ClaudeSubagentStopInput
  | ClaudeSessionStartInput
  | ClaudeSessionEndInput;

export type ClaudeHookEventName = ClaudeHookInput["hook_event_name"];

export const CLAUDE_HOOK_EVENTS: readonly ClaudeHookEventName[] = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PermissionRequest",
  "PermissionDenied",
  "PostToolUse",
  "PostToolUseFailure",
  "SubagentStart",
  "SubagentStop",
  "Stop",
  "SessionEnd",
];

const TOOL_EVENTS = new Set([
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionDenied",
]);
const TOOL_USE_ID_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied"]);

const AGENT_EVENTS = new Set(["SubagentStart", "SubagentStop"]);
const USAGE = "`toolgate hook claude-code` expects one Claude Code hook event as JSON on stdin.";

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseClaudeHookInput(text: string): ClaudeHookInput {
  return readHookEnvelope(text, {
    events: CLAUDE_HOOK_EVENTS,
    toolEvents: TOOL_EVENTS,
    toolUseIdEvents: TOOL_USE_ID_EVENTS,
    agentEvents: AGENT_EVENTS,
    usage: USAGE,
  }) as unknown as ClaudeHookInput;
}
