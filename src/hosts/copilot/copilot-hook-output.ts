import { failClosedText } from "../../guard/fail-closed.js";
import type { HookAnswer } from "../common/hook-host.js";
import { COPILOT_GATING_EVENTS, COPILOT_HOOK_EVENTS } from "./copilot-hook-input.js";

/**
 * GitHub Copilot CLI 1.0.102's hook answers (stdout JSON, exit 0), as measured offline:
 * - preToolUse `permissionDecision: "deny"`: the call is not run; the model reads `Denied by preToolUse hook:
 *   <reason>`. `"ask"` in `-p`: `Denied by preToolUse hook (unable to ask user for confirmation): <reason>`, and no
 *   permissionRequest follows. A preToolUse hook that exits non-zero also refuses the call.
 * - permissionRequest `behavior: "deny"`, `message`: the model reads `Permission denied by a PermissionRequest hook:
 *   <message>`; with `interrupt: true` the run ends there (no agentStop) and Copilot exits 0.
 * - postToolUse `additionalContext`: appended to the tool result (`Tool "bash" succeeded. Additional guidance from
 *   postToolUse hooks: ...`); postToolUseFailure `additionalContext`: a user message after the result.
 */
export const PASS: HookAnswer = { exitCode: 0 };

export function preToolUseDeny(reason: string): HookAnswer {
  return { output: { permissionDecision: "deny", permissionDecisionReason: reason }, exitCode: 0 };
}

export function preToolUseAsk(reason: string): HookAnswer {
  return { output: { permissionDecision: "ask", permissionDecisionReason: reason }, exitCode: 0 };
}

export function permissionDeny(options: { message: string; interrupt: boolean }): HookAnswer {
  return {
    output: { behavior: "deny", message: options.message, ...(options.interrupt ? { interrupt: true } : {}) },
    exitCode: 0,
  };
}

export function additionalContext(text: string): HookAnswer {
  return text === "" ? PASS : { output: { additionalContext: text }, exitCode: 0 };
}

/**
 * When toolgate could not check an event: a deny the model reads for preToolUse and permissionRequest (with the
 * interrupt: nothing checks the run any more); exit 2 for input that could not even be read (Copilot refuses the
 * call of a preToolUse hook that exits non-zero); a non-blocking error for the observing events.
 */
export function failClosed(options: { eventName: string | undefined; reason: string }): HookAnswer {
  const reason = failClosedText(options.reason);
  if (options.eventName === "preToolUse") return preToolUseDeny(reason);
  if (options.eventName === "permissionRequest") return permissionDeny({ message: reason, interrupt: true });
  if (
    options.eventName === undefined ||
    !COPILOT_HOOK_EVENTS.includes(options.eventName as never) ||
    COPILOT_GATING_EVENTS.includes(options.eventName)
  ) {
    return { exitCode: 2, stderr: reason };
  }
  return { exitCode: 1, stderr: `toolgate: ${options.reason}` };
}
