import { ToolgateError } from "../../core/errors.js";

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

function invalid(message: string): ToolgateError {
  return new ToolgateError({
    code: "INPUT_INVALID",
    message: `${message} \`toolgate hook claude-code\` expects one Claude Code hook event as JSON on stdin.`,
  });
}

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseClaudeHookInput(text: string): ClaudeHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("The hook input is not valid JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid("The hook input is not an object.");
  const payload = value as Record<string, unknown>;
  const event = payload.hook_event_name;
  if (typeof event !== "string" || !CLAUDE_HOOK_EVENTS.includes(event as ClaudeHookEventName)) {
    throw invalid(`Unsupported hook_event_name ${JSON.stringify(event)}.`);
  }
  if (typeof payload.session_id !== "string" || payload.session_id === "") throw invalid("session_id is missing.");
  if (TOOL_EVENTS.has(event) && typeof payload.tool_name !== "string") throw invalid(`${event} needs tool_name.`);
  if (TOOL_USE_ID_EVENTS.has(event) && typeof payload.tool_use_id !== "string") {
    throw invalid(`${event} needs tool_use_id.`);
  }
  if ((event === "SubagentStart" || event === "SubagentStop") && typeof payload.agent_id !== "string") {
    throw invalid(`${event} needs agent_id.`);
  }
  return payload as unknown as ClaudeHookInput;
}
