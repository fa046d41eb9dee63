import { failClosedText } from "../../guard/fail-closed.js";
import type { HookAnswer } from "../common/hook-host.js";
import { GEMINI_HOOK_EVENTS } from "./gemini-hook-input.js";

/**
 * Gemini CLI's hook output (stdout JSON, exit 0), only the shapes toolgate answers with. Measured on 0.61.0:
 * a BeforeTool `{"decision":"deny","reason":R}` reaches the model as the tool error `Tool execution blocked: R`
 * (Gemini's own policy is not consulted for that call); `continue: false` ends the run after the current tool
 * calls (the tool result is `Agent execution stopped by hook: <stopReason>`, `gemini -p` still exits 0); an
 * AfterTool `hookSpecificOutput.additionalContext` is appended to the tool result in `<hook_context>` tags.
 */
export interface GeminiHookOutput {
  decision?: "deny";
  reason?: string;
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { hookEventName: string; additionalContext?: string };
}

export interface GeminiHookAnswer extends HookAnswer {
  output?: GeminiHookOutput;
}

/** No opinion: Gemini goes on with its own policy. */
export const PASS: GeminiHookAnswer = { exitCode: 0 };

/** Refuses the call with `reason` for the model; `stop` also ends the run with that message for the person. */
export function denyTool(options: { reason: string; stop?: string }): GeminiHookAnswer {
  const output: GeminiHookOutput = { decision: "deny", reason: options.reason };
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

/** Text appended to a tool result (AfterTool), and/or the end of the run. */
export function afterToolContext(options: { text: string; stop?: string }): GeminiHookAnswer {
  const output: GeminiHookOutput = {};
  if (options.text !== "") output.hookSpecificOutput = { hookEventName: "AfterTool", additionalContext: options.text };
  if (options.stop !== undefined) {
    output.continue = false;
    output.stopReason = options.stop;
  }
  return { output, exitCode: 0 };
}

/**
 * The fail-closed answer when toolgate could not check an event: a deny the model can read for BeforeTool; exit 2
 * (Gemini blocks, stderr is the reason) for an event it could not even read, which may be a BeforeTool; a
 * non-blocking warning (exit 1) for the other events, which toolgate only observes.
 */
export function failClosed(options: { eventName: string | undefined; reason: string }): GeminiHookAnswer {
  const reason = failClosedText(options.reason);
  if (options.eventName === "BeforeTool") return denyTool({ reason });
  if (options.eventName === undefined || !GEMINI_HOOK_EVENTS.includes(options.eventName as never)) {
    return { exitCode: 2, stderr: reason };
  }
  return { exitCode: 1, stderr: `toolgate: ${options.reason}` };
}
