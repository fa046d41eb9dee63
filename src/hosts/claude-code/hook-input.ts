import { ToolgateError } from "../../core/errors.js";
import { readHookEnvelope } from "../common/hook-envelope.js";

/**
 * The JSON Claude Code writes to a command hook's stdin (2.1.332), for the events toolgate handles. Recorded
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

/**
 * Before a skill's (or custom command's) inline shell command runs (Claude Code 2.1.331+; older versions ignore the
 * settings key and run the command unseen). `tool_name` is the shell tool that would run it (`Bash` or
 * `PowerShell`), `tool_input.command` the command with its arguments filled in. `tool_use_id` names no tool call in
 * the transcript: it is the Skill call's id with `:preamble-<n>` appended (observed on 2.1.332).
 */
export interface ClaudePreSkillShellCommandInput extends ClaudeHookBase {
  hook_event_name: "PreSkillShellCommand";
  tool_name: string;
  tool_input: { command: string };
  tool_use_id: string;
  /** the skill or command whose text holds the shell command */
  command_name?: string;
  command_source?: string;
  /** `user` (typed, or sent by an SDK host), `claude` (the Skill tool), `other` */
  invoked_by?: string;
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
  | ClaudePreSkillShellCommandInput
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
  "PreSkillShellCommand",
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
  "PreSkillShellCommand",
]);
const TOOL_USE_ID_EVENTS = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionDenied",
  "PreSkillShellCommand",
]);

const AGENT_EVENTS = new Set(["SubagentStart", "SubagentStop"]);
const USAGE = "`toolgate hook claude-code` expects one Claude Code hook event as JSON on stdin.";

/** Parses and checks one hook payload. Throws INPUT_INVALID with a sentence saying what is wrong. */
export function parseClaudeHookInput(text: string): ClaudeHookInput {
  const payload = readHookEnvelope(text, {
    events: CLAUDE_HOOK_EVENTS,
    toolEvents: TOOL_EVENTS,
    toolUseIdEvents: TOOL_USE_ID_EVENTS,
    agentEvents: AGENT_EVENTS,
    usage: USAGE,
  });
  // a skill's shell command is decided on its text: without one there is nothing to decide, so it fails closed
  if (payload["hook_event_name"] === "PreSkillShellCommand") {
    const toolInput = payload["tool_input"] as { command?: unknown } | null | undefined;
    if (typeof toolInput !== "object" || toolInput === null || typeof toolInput.command !== "string") {
      throw new ToolgateError({
        code: "INPUT_INVALID",
        message: `The PreSkillShellCommand event has no tool_input.command. ${USAGE}`,
      });
    }
  }
  return payload as unknown as ClaudeHookInput;
}
