import type { Decision } from "./decision.js";
import type { BlockEffect } from "./effects.js";
import type { CallDeniedEvent, CallRequestedEvent, DenialSource } from "./events.js";
import { detectLoop } from "./loop-detector.js";
import { onCallDenied, recordRefusal } from "./on-call-denied.js";
import { resetToolStreaks } from "./reset-streaks.js";
import { type StepContext, writableAgent } from "./step-context.js";

/**
 * One call, one decision, one step: an earlier abort refuses it (the same abort, told again); else the loop
 * detector may block it; else the policy's verdict (evaluated on this step's state) applies. A deny is counted,
 * recorded and escalated here, in the same step, and the step ends with one `decision` effect.
 */
export function onCallRequested(context: StepContext, event: CallRequestedEvent): void {
  const { call } = event;
  if (context.state.aborted !== undefined) {
    const abort = context.state.aborted;
    const text = abort.text ?? abort.error ?? "toolgate stopped this run.";
    recordRefusal(context, denial(event, { source: "aborted", reason: abort.error ?? text }));
    // pushed after the record so hosts that render the first text see the abort
    context.effects.push(repeatedAbort(context, event));
    decide(context, event, { behavior: "deny", source: "toolgate", reason: text, denialSource: "aborted" });
    return;
  }
  detectLoop(context, event);
  const block = context.effects.find(
    (effect): effect is BlockEffect => effect.type === "block" && effect.toolUseId === call.toolUseId,
  );
  if (block !== undefined) {
    onCallDenied(context, denial(event, { source: "loop", reason: block.text }));
    decide(context, event, { behavior: "deny", source: "toolgate", reason: block.text, denialSource: "loop" });
    return;
  }
  const verdict = event.verdict;
  if (verdict === undefined) {
    decide(context, event, { behavior: "allow", source: "default", reason: "no toolgate policy; the host decides" });
    return;
  }
  const decision: Decision = { behavior: verdict.behavior, source: verdict.decidedBy, reason: verdict.reason };
  if (verdict.rule !== undefined) decision.rule = verdict.rule;
  if (verdict.behavior === "deny") {
    const source = verdict.denialSource ?? (verdict.decidedBy === "mode" ? "mode" : "rule");
    decision.denialSource = source;
    onCallDenied(context, {
      ...denial(event, { source, reason: verdict.reason }),
      ...(verdict.rule === undefined ? {} : { rule: verdict.rule }),
    });
  } else if (verdict.behavior === "allow" && verdict.decidedBy !== "default") {
    onCallAllowed(context, event);
  }
  decide(context, event, decision);
}

/** An allowed call ends the denial streaks of its agent and tool. */
export function onCallAllowed(context: StepContext, event: { agentId?: string; call: { tool: string } }): void {
  const agent = writableAgent(context, event.agentId);
  agent.consecutive = 0;
  resetToolStreaks(agent, event.call.tool);
}

function denial(event: CallRequestedEvent, options: { source: DenialSource; reason: string }): CallDeniedEvent {
  const denied: CallDeniedEvent = {
    type: "call.denied",
    at: event.at,
    sessionId: event.sessionId,
    call: event.call,
    source: options.source,
    reason: options.reason,
  };
  if (event.agentId !== undefined) denied.agentId = event.agentId;
  return denied;
}

function repeatedAbort(context: StepContext, event: CallRequestedEvent) {
  const aborted = context.state.aborted!;
  const error =
    aborted.error ?? `toolgate stopped this run earlier (${aborted.reason}, ${aborted.tool}). Start a new run.`;
  return {
    type: "abort" as const,
    tool: event.call.tool,
    toolUseId: event.call.toolUseId,
    count: aborted.count ?? 0,
    signature: aborted.signature ?? aborted.tool,
    error,
    text: aborted.text ?? error,
    reason: aborted.reason as "denials" | "loop" | "tree-budget",
    repeat: true,
  };
}

function decide(context: StepContext, event: CallRequestedEvent, decision: Decision): void {
  context.effects.push({ type: "decision", toolUseId: event.call.toolUseId, tool: event.call.tool, decision });
}
