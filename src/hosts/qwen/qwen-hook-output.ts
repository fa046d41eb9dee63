import { failClosedText } from "../../guard/fail-closed.js";
import type { HookAnswer } from "../common/hook-host.js";
import { QWEN_HOOK_EVENTS } from "./qwen-hook-input.js";

/**
 * Qwen Code's hook answers (stdout JSON, exit 0), as measured on 0.24.4:
 * - PreToolUse `permissionDecision: "deny"`: the tool result the model gets is exactly the reason; `continue:
 *   false` there is NOT honoured (the run goes on);
 * - UserPromptSubmit `additionalContext`: a user message `<qwen:user-prompt-submit-context>...` right after the
 *   tool results; `continue: false` (or `decision: "block"`) there ends the run before the next model request
 *   (Qwen then exits 0 with an empty result: `toolgate run` turns the recorded abort into exit 6);
 * - PostToolUse / PostToolUseFailure `additionalContext`: appended to the tool result the model gets.
 */
export interface QwenHookOutput {
  continue?: boolean;
  stopReason?: string;
  hookSpecificOutput?: Record<string, unknown>;
}

export const PASS: HookAnswer = { exitCode: 0 };

export function preToolUseDeny(reason: string): HookAnswer {
  return {
    output: {
      hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason },
    },
    exitCode: 0,
  };
}

/** Text for the model (when any) and, with `stop`, the end of the run. */
export function contextAnswer(options: { event: string; text: string; stop?: string }): HookAnswer {
  const output: QwenHookOutput = {};
  if (options.text !== "") {
    output.hookSpecificOutput = { hookEventName: options.event, additionalContext: options.text };
  }
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return Object.keys(output).length === 0 ? PASS : { output, exitCode: 0 };
}

/**
 * When toolgate could not check an event: a deny the model reads for PreToolUse; for UserPromptSubmit a stop (the
 * denials of the last step could not be counted, so the run must not go on unwatched); exit 2 (blocking) for input
 * that could not even be read; a non-blocking error for the observing events.
 */
export function failClosed(options: { event: string | undefined; reason: string }): HookAnswer {
  const reason = failClosedText(options.reason);
  if (options.event === "PreToolUse") return preToolUseDeny(reason);
  if (options.event === "UserPromptSubmit") return contextAnswer({ event: "UserPromptSubmit", text: "", stop: reason });
  if (options.event === undefined || !QWEN_HOOK_EVENTS.includes(options.event as never)) {
    return { exitCode: 2, stderr: reason };
  }
  return { exitCode: 1, stderr: `toolgate: ${options.reason}` };
}
