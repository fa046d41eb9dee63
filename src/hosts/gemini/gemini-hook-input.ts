import { readHookEnvelope } from "../common/hook-envelope.js";

/**
 * The JSON Gemini CLI 0.61.0 writes to a command hook's stdin, for the events toolgate handles. Recorded payloads
 * live in test/fixtures/gemini/. Every event has `session_id`, `transcript_path`, `cwd`, `hook_event_name` and
 * `timestamp`; tool events have no call id (toolgate makes one per call).
 */
export interface GeminiHookBase {
  session_id: string;
  transcript_path?: string;
  cwd?: string;
  timestamp?: string;
}

/** Fires before Gemini's own policy check, also for calls its policy denies. */
export interface GeminiBeforeToolInput extends GeminiHookBase {
  hook_event_name: "BeforeTool";
  tool_name: string;
  tool_input: unknown;
  /** for an MCP tool: `{ server_name, tool_name, command?, args?, url? }` */
  mcp_context?: unknown;
}

/** Fires after a call ran (never for a call a policy or a hook refused). */
export interface GeminiAfterToolInput extends GeminiHookBase {
  hook_event_name: "AfterTool";
  tool_name: string;
  tool_input: unknown;
  /** `{ llmContent, returnDisplay, error? }` */
  tool_response?: unknown;
  mcp_context?: unknown;
}

/** A user prompt starts a turn. */
export interface GeminiBeforeAgentInput extends GeminiHookBase {
  hook_event_name: "BeforeAgent";
  prompt?: string;
}

export interface GeminiAfterAgentInput extends GeminiHookBase {
  hook_event_name: "AfterAgent";
  prompt_response?: string;
  stop_hook_active?: boolean;
}

export interface GeminiSessionInput extends GeminiHookBase {
  hook_event_name: "SessionStart" | "SessionEnd";
  source?: string;
  reason?: string;
}

/** Events toolgate installs no hook for but answers harmlessly when a user's settings route them to it. */
export interface GeminiOtherInput extends GeminiHookBase {
  hook_event_name: "Notification" | "PreCompress" | "BeforeModel" | "AfterModel" | "BeforeToolSelection";
}

export type GeminiHookInput =
  | GeminiBeforeToolInput
  | GeminiAfterToolInput
  | GeminiBeforeAgentInput
  | GeminiAfterAgentInput
  | GeminiSessionInput
  | GeminiOtherInput;

export type GeminiHookEventName = GeminiHookInput["hook_event_name"];

/** The events `toolgate install gemini` registers, in the order Gemini fires them. */
export const GEMINI_INSTALLED_EVENTS = [
  "SessionStart",
  "BeforeAgent",
  "BeforeTool",
  "AfterTool",
  "AfterAgent",
  "SessionEnd",
] as const satisfies readonly GeminiHookEventName[];

export const GEMINI_HOOK_EVENTS: readonly GeminiHookEventName[] = [
  ...GEMINI_INSTALLED_EVENTS,
  "Notification",
  "PreCompress",
  "BeforeModel",
  "AfterModel",
  "BeforeToolSelection",
];

const TOOL_EVENTS = new Set(["BeforeTool", "AfterTool"]);
const USAGE = "`toolgate hook gemini` expects one Gemini CLI hook event as JSON on stdin.";

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseGeminiHookInput(text: string): GeminiHookInput {
  return readHookEnvelope(text, {
    events: GEMINI_HOOK_EVENTS,
    toolEvents: TOOL_EVENTS,
    usage: USAGE,
  }) as unknown as GeminiHookInput;
}
