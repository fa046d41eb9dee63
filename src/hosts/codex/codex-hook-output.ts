import { failClosedText } from "../../guard/fail-closed.js";
import type { HookAnswer } from "../common/hook-host.js";
import { CODEX_GATING_EVENTS, CODEX_HOOK_EVENTS } from "./codex-hook-input.js";

/**
 * Codex 0.169.0's hook output (stdout JSON, exit 0), measured on the binary:
 * - PreToolUse `hookSpecificOutput.permissionDecision: "deny"` with a non-empty `permissionDecisionReason` blocks
 *   the call; the model reads `Command blocked by PreToolUse hook: <reason>. Command: <command>`;
 *   `additionalContext` reaches the model as a developer message before that output. `continue: false`,
 *   `stopReason`, `suppressOutput` and `permissionDecision: "allow"` without `updatedInput` are *invalid* there
 *   (the hook counts as failed and Codex goes on with its own decision), so toolgate never sends them.
 * - exit 2 with a reason on stderr blocks a PreToolUse call the same way.
 * - PostToolUse `continue: false` only replaces the tool's output with `stopReason`: the run goes on. No hook answer
 *   ends a `codex exec` run mid-turn; `toolgate run` ends it (see docs/codex.md).
 */
export function preToolUseDeny(options: { reason: string; additionalContext?: string }): HookAnswer {
  const hookSpecificOutput: Record<string, unknown> = {
    hookEventName: "PreToolUse",
    permissionDecision: "deny",
    // Codex refuses an empty reason (the hook then counts as failed and the call runs): never empty
    permissionDecisionReason: options.reason.trim() === "" ? "Denied by toolgate." : options.reason,
  };
  if (options.additionalContext !== undefined && options.additionalContext !== "") {
    hookSpecificOutput["additionalContext"] = options.additionalContext;
  }
  return { output: { hookSpecificOutput }, exitCode: 0 };
}

/** Text for the model beside a call that goes ahead (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart). */
export function additionalContext(options: { event: string; text: string }): HookAnswer {
  if (options.text === "") return PASS;
  return {
    output: { hookSpecificOutput: { hookEventName: options.event, additionalContext: options.text } },
    exitCode: 0,
  };
}

/** No opinion: Codex goes on with its own decision. */
export const PASS: HookAnswer = { exitCode: 0 };

/**
 * The answer when toolgate could not check an event: a deny the model can read for the gating events; exit 2 with
 * the reason on stderr (Codex blocks a PreToolUse call on it) for an event it could not read, which may be a
 * gating one; a non-blocking error for the others.
 */
export function failClosed(options: { eventName: string | undefined; reason: string }): HookAnswer {
  const reason = failClosedText(options.reason);
  if (options.eventName === "PreToolUse") return preToolUseDeny({ reason });
  if (options.eventName === "PermissionRequest") {
    return {
      output: {
        hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: reason } },
      },
      exitCode: 0,
    };
  }
  if (options.eventName === undefined || !(CODEX_HOOK_EVENTS as readonly string[]).includes(options.eventName)) {
    return { exitCode: 2, stderr: reason };
  }
  return CODEX_GATING_EVENTS.includes(options.eventName)
    ? { exitCode: 2, stderr: reason }
    : { exitCode: 1, stderr: `toolgate: ${options.reason}` };
}
