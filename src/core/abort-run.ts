import { audit } from "./audit-event.js";
import type { AbortEffect } from "./effects.js";
import type { ToolCall } from "./events.js";
import type { StepContext } from "./step-context.js";

/**
 * The one way a run is stopped: remember the abort in the state (with its sentences, so every later call is told
 * exactly the same thing) and emit one `abort` effect and one `run.aborted` audit event. Does nothing when the
 * run was already stopped.
 */
export function abortRun(
  context: StepContext,
  options: {
    event: { at: number; agentId?: string; call: ToolCall };
    reason: AbortEffect["reason"];
    count: number;
    signature: string;
    /** the user-facing error */
    error: string;
    /** the text for the model */
    text: string;
    detail?: Record<string, unknown>;
  },
): void {
  const { state } = context;
  if (state.aborted !== undefined) return;
  const { event, reason, count, signature, error, text } = options;
  state.aborted = { at: event.at, tool: event.call.tool, reason, error, text, count, signature };
  context.effects.push({
    type: "abort",
    tool: event.call.tool,
    toolUseId: event.call.toolUseId,
    count,
    signature,
    error,
    text,
    reason,
  });
  context.effects.push(
    audit(context, { kind: "run.aborted", event, detail: { reason, error, ...(options.detail ?? {}) } }),
  );
}
