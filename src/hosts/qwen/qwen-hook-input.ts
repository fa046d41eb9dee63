import { readHookEnvelope } from "../common/hook-envelope.js";

/**
 * The JSON Qwen Code 0.24.4 writes to a command hook's stdin, for the events toolgate handles (recorded payloads:
 * test/fixtures/qwen/). Claude-style, with two differences that matter: on Pre/PostToolUse `tool_use_id` is Qwen's
 * own id (`toolu_<n>_<x>`) and `tool_call_id` the model's call id (the one the transcript keys results by); and
 * `UserPromptSubmit` fires on every model turn, with `prompt: ""` on the continuations after tool results.
 */
export interface QwenHookBase {
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  permission_mode?: string;
  agent_id?: string;
}

export interface QwenToolEvent extends QwenHookBase {
  tool_name: string;
  tool_input: unknown;
  /** Qwen's own id for the call (`toolu_<n>_<x>`) */
  tool_use_id?: string;
  /** the model's call id (`call_...`), the one the transcript and stream-json use */
  tool_call_id?: string;
}

export interface QwenPreToolUseInput extends QwenToolEvent {
  hook_event_name: "PreToolUse";
}

export interface QwenPostToolUseInput extends QwenToolEvent {
  hook_event_name: "PostToolUse";
  /** `{ llmContent, returnDisplay }` on 0.24.4 */
  tool_response?: unknown;
}

export interface QwenPostToolUseFailureInput extends QwenToolEvent {
  hook_event_name: "PostToolUseFailure";
  error?: string;
}

/** Fires only for a block by the auto-mode classifier (`reason: "classifier_blocked"`). */
export interface QwenPermissionDeniedInput extends QwenToolEvent {
  hook_event_name: "PermissionDenied";
  reason?: string;
}

/** One call of a PostToolBatch: `tool_use_id` here is the model's call id (the transcript's). */
export interface QwenBatchCall {
  tool_name: string;
  tool_input?: unknown;
  tool_use_id: string;
  status?: string;
  tool_response?: { error?: unknown; error_type?: unknown; result_display?: unknown };
}

/**
 * Fires after every batch of tool calls, BEFORE Qwen writes their results to the transcript, with every call of the
 * batch, including those Qwen's own rules refused (`error_type: "execution_denied"`), which no other hook sees.
 * Its `additionalContext` is appended to the batch's last tool result.
 */
export interface QwenPostToolBatchInput extends QwenHookBase {
  hook_event_name: "PostToolBatch";
  tool_calls: QwenBatchCall[];
}

export interface QwenUserPromptSubmitInput extends QwenHookBase {
  hook_event_name: "UserPromptSubmit";
  /** the person's prompt; `""` when Qwen continues after tool results */
  prompt?: string;
}

export interface QwenSessionInput extends QwenHookBase {
  hook_event_name: "SessionStart" | "Stop" | "SessionEnd";
}

export type QwenHookInput =
  | QwenPreToolUseInput
  | QwenPostToolUseInput
  | QwenPostToolUseFailureInput
  | QwenPermissionDeniedInput
  | QwenUserPromptSubmitInput
  | QwenPostToolBatchInput
  | QwenSessionInput;

export type QwenHookEventName = QwenHookInput["hook_event_name"];

export const QWEN_HOOK_EVENTS: readonly QwenHookEventName[] = [
  "SessionStart",
  "UserPromptSubmit",
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionDenied",
  "PostToolBatch",
  "Stop",
  "SessionEnd",
];

const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionDenied"]);

const BATCH_EVENTS = new Set(["PostToolBatch"]);
const USAGE = "`toolgate hook qwen` expects one Qwen Code hook event as JSON on stdin.";

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseQwenHookInput(text: string): QwenHookInput {
  return readHookEnvelope(text, {
    events: QWEN_HOOK_EVENTS,
    toolEvents: TOOL_EVENTS,
    batchEvents: BATCH_EVENTS,
    optionalStrings: ["tool_use_id", "tool_call_id", "transcript_path"],
    usage: USAGE,
  }) as unknown as QwenHookInput;
}
