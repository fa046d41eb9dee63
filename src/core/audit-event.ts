import type { AuditEffect } from "./effects.js";
import type { AuditEventKind } from "./records.js";
import type { StepContext } from "./step-context.js";

/** Builds an audit effect stamped with the session, turn and the triggering event's time and call. */
export function audit(
  context: StepContext,
  options: {
    kind: AuditEventKind;
    event: { at: number; agentId?: string; call?: { tool: string; toolUseId: string } };
    detail: Record<string, unknown>;
  },
): AuditEffect {
  const { event } = options;
  const auditEvent: AuditEffect["event"] = {
    kind: options.kind,
    sessionId: context.state.sessionId,
    turn: context.state.turn,
    at: event.at,
    detail: options.detail,
  };
  if (event.agentId !== undefined) auditEvent.agentId = event.agentId;
  if (event.call !== undefined) {
    auditEvent.tool = event.call.tool;
    auditEvent.toolUseId = event.call.toolUseId;
  }
  return { type: "audit", event: auditEvent };
}
