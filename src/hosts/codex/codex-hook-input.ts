import { ToolgateError } from "../../core/errors.js";

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

function invalid(message: string): ToolgateError {
  return new ToolgateError({
    code: "INPUT_INVALID",
    message: `${message} Run this command only as a Codex hook (toolgate install codex writes it into hooks.json).`,
  });
}

/** Parses one Codex hook payload; throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseCodexHookInput(text: string): CodexHookInput {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw invalid("The Codex hook input on stdin is not JSON.");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw invalid("The Codex hook input on stdin is not a JSON object.");
  }
  const record = value as Record<string, unknown>;
  const event = record["hook_event_name"];
  if (typeof event !== "string" || !(CODEX_HOOK_EVENTS as readonly string[]).includes(event)) {
    throw invalid(`The Codex hook event ${JSON.stringify(event)} is not one toolgate handles.`);
  }
  if (typeof record["session_id"] !== "string" || record["session_id"] === "") {
    throw invalid(`The Codex ${event} hook input has no session_id.`);
  }
  if (TOOL_EVENTS.has(event) && typeof record["tool_name"] !== "string") {
    throw invalid(`The Codex ${event} hook input has no tool_name.`);
  }
  if ((event === "PreToolUse" || event === "PostToolUse") && typeof record["tool_use_id"] !== "string") {
    throw invalid(`The Codex ${event} hook input has no tool_use_id.`);
  }
  if ((event === "SubagentStart" || event === "SubagentStop") && typeof record["agent_id"] !== "string") {
    throw invalid(`The Codex ${event} hook input has no agent_id.`);
  }
  return record as unknown as CodexHookInput;
}
