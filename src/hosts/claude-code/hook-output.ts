import { failClosedText } from "../../guard/fail-closed.js";
import type { HookAnswer as GenericHookAnswer } from "../common/hook-host.js";
import { CLAUDE_HOOK_EVENTS } from "./hook-input.js";
/**
 * Claude Code's hook output format (stdout JSON, exit 0). Only the shapes toolgate answers with.
 *
 * What the model sees (measured on 2.1.330): a PreToolUse deny reaches it as
 * `PreToolUse:<Tool> hook error: <permissionDecisionReason>`; a PermissionRequest deny `message` verbatim;
 * `additionalContext` as a separate system message in the next request. `continue: false` ends the run after the
 * current tool results (`terminal_reason: "hook_stopped"`).
 */
export interface ClaudeHookOutput {
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  suppressOutput?: boolean;
  hookSpecificOutput?: Record<string, unknown>;
}

/** How a hook process answers: JSON on stdout and an exit code (2 = blocking error with stderr to Claude). */
export interface HookAnswer extends GenericHookAnswer {
  output?: ClaudeHookOutput;
}

export function preToolUseDeny(options: { reason: string; additionalContext?: string; stop?: string }): HookAnswer {
  const hookSpecificOutput: Record<string, unknown> = {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    permissionDecisionReason: options.reason,
  };
  if (options.additionalContext) hookSpecificOutput.additionalContext = options.additionalContext;
  const output: ClaudeHookOutput = { hookSpecificOutput };
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

/**
 * A skill's inline shell command refused (PreSkillShellCommand, Claude Code 2.1.331+): the command does not run and
 * the skill's text shows `[not run: blocked by hook: <reason>]` in its place, which is what the model reads (the
 * reason cut at 500 characters); the person sees `Not run in /<skill>: <command> (blocked by hook: <reason>)`.
 * `continue: false` ends the run (measured on 2.1.332).
 */
export function preSkillShellCommandDeny(options: { reason: string; stop?: string }): HookAnswer {
  const output: ClaudeHookOutput = {
    hookSpecificOutput: {
      hookEventName: "PreSkillShellCommand",
      permissionDecision: "deny",
      permissionDecisionReason: options.reason,
    },
  };
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

export function permissionRequestDeny(options: { message: string; interrupt?: boolean; stop?: string }): HookAnswer {
  const decision: Record<string, unknown> = { behavior: "deny", message: options.message };
  if (options.interrupt === true) decision.interrupt = true;
  const output: ClaudeHookOutput = { hookSpecificOutput: { hookEventName: "PermissionRequest", decision } };
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

/** Soft guidance for the model, no decision. Events without additionalContext support get a systemMessage. */
export function additionalContext(options: { event: string; text: string; stop?: string }): HookAnswer {
  const output: ClaudeHookOutput = {};
  if (options.text !== "") {
    output.hookSpecificOutput = { hookEventName: options.event, additionalContext: options.text };
  }
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

/** No opinion: Claude Code continues with its own decision. */
export const PASS: HookAnswer = { exitCode: 0 };

/**
 * The fail-closed answer when toolgate could not check an event: a deny the model can read for the gating events;
 * exit 2 (blocking, the reason on stderr) for an event that could not even be read, which may be a gating one; a
 * non-blocking error for the other events (Claude Code goes on; toolgate only observes those).
 */
export function failClosed(options: { event: string | undefined; reason: string }): HookAnswer {
  const reason = failClosedText(options.reason);
  if (options.event === "PermissionRequest") return permissionRequestDeny({ message: reason });
  if (options.event === "PreToolUse") return preToolUseDeny({ reason });
  // any other exit code would let the skill's command run (Claude Code shows stderr and runs it)
  if (options.event === "PreSkillShellCommand") return preSkillShellCommandDeny({ reason });
  if (options.event === undefined || !CLAUDE_HOOK_EVENTS.includes(options.event as never)) {
    return { exitCode: 2, stderr: reason };
  }
  return { exitCode: 1, stderr: `toolgate: ${options.reason}` };
}
