import { readHookEnvelope } from "../common/hook-envelope.js";

/**
 * The JSON Codex CLI 0.169.0 writes to a command hook's stdin, for the events toolgate handles (recorded payloads:
 * test/fixtures/codex/hooks/). Only the fields toolgate reads are listed. `permission_mode` is
 * `bypassPermissions` when the approval policy is `never` (every `codex exec` run): nobody answers a prompt then.
 */
export interface CodexHookBase {
  session_id: string;
  turn_id?: string;
  transcript_path?: string | null;
  cwd?: string;
  model?: string;
  permission_mode?: string;
  /**
   * toolgate's own, not Codex's: the session's folder from its rollout (`codex-session-environment.ts`), set when the
   * hook reads the event; the policy's working directory, where `cwd` is the call's
   */
  session_root?: string;
  /** set when a subagent made the call */
  agent_id?: string;
  agent_type?: string;
}

export interface CodexPreToolUseInput extends CodexHookBase {
  hook_event_name: "PreToolUse";
  /** `Bash` for `exec_command` / `shell` calls, `apply_patch`, or an MCP tool's name */
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
}

export interface CodexPermissionRequestInput extends CodexHookBase {
  hook_event_name: "PermissionRequest";
  tool_name: string;
  tool_input: unknown;
  tool_use_id?: string;
}

export interface CodexPostToolUseInput extends CodexHookBase {
  hook_event_name: "PostToolUse";
  tool_name: string;
  tool_input: unknown;
  /** the command's output text (stdout and stderr) for shell calls */
  tool_response: unknown;
  tool_use_id: string;
}

export interface CodexUserPromptSubmitInput extends CodexHookBase {
  hook_event_name: "UserPromptSubmit";
  prompt?: string;
}

export interface CodexStopInput extends CodexHookBase {
  hook_event_name: "Stop";
  stop_hook_active?: boolean;
  last_assistant_message?: string | null;
}

export interface CodexSessionStartInput extends CodexHookBase {
  hook_event_name: "SessionStart";
  source?: string;
}

export interface CodexSessionEndInput extends CodexHookBase {
  hook_event_name: "SessionEnd";
  reason?: string;
}

export interface CodexSubagentInput extends CodexHookBase {
  hook_event_name: "SubagentStart" | "SubagentStop";
  agent_id: string;
}

export type CodexHookInput =
  | CodexPreToolUseInput
  | CodexPermissionRequestInput
  | CodexPostToolUseInput
  | CodexUserPromptSubmitInput
  | CodexStopInput
  | CodexSessionStartInput
  | CodexSessionEndInput
  | CodexSubagentInput;

export const CODEX_HOOK_EVENTS = [
  "PreToolUse",
  "PermissionRequest",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SessionStart",
  "SessionEnd",
  "SubagentStart",
  "SubagentStop",
] as const satisfies readonly CodexHookInput["hook_event_name"][];

/** The events on which Codex waits for toolgate before it runs or refuses a call. */
export const CODEX_GATING_EVENTS: readonly string[] = ["PreToolUse", "PermissionRequest"];

const TOOL_EVENTS = new Set(["PreToolUse", "PermissionRequest", "PostToolUse"]);
const TOOL_USE_ID_EVENTS = new Set(["PreToolUse", "PostToolUse"]);
const AGENT_EVENTS = new Set(["SubagentStart", "SubagentStop"]);

const USAGE = "Run this command only as a Codex hook (toolgate install codex writes it into hooks.json).";

/** Parses one Codex hook payload; throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseCodexHookInput(text: string): CodexHookInput {
  return readHookEnvelope(text, {
    events: CODEX_HOOK_EVENTS,
    toolEvents: TOOL_EVENTS,
    toolUseIdEvents: TOOL_USE_ID_EVENTS,
    agentEvents: AGENT_EVENTS,
    usage: USAGE,
  }) as unknown as CodexHookInput;
}
