import { isSavedCall } from "../core/figures.js";
import { type AuditEvent, type DenialRecord, withToolIdentity } from "../core/records.js";
import type { ToolFamily } from "../core/tool-families.js";

/**
 * Hook and webhook payloads, snake_case. The denial payload is agent-code's `permission_denied` context
 * (`session_id, turn, tool, tool_use_id, reason, input_summary, timestamp`) plus toolgate's fields. Everything in
 * it was redacted by the core before it became a record.
 */
export interface PermissionDeniedPayload {
  event: "permission_denied";
  session_id: string;
  turn: number;
  /** the host's tool name (`Bash`, `exec_command`, ...) */
  tool: string;
  /** the host-neutral tool (core/tool-families.ts): `shell` for every host's shell tool */
  canonical_tool: string;
  tool_family: ToolFamily;
  tool_use_id: string;
  reason: string;
  input_summary: string;
  timestamp: string;
  source: string;
  signature: string;
  rule: string | null;
  decision_reason_type: string | null;
  agent_id: string | null;
  parent_session_id: string | null;
  host: string | null;
  labels: Record<string, string>;
  tool_input: unknown;
  /** the record's position in the session's denial count (with session_id, a unique key) */
  seq: number;
  /** toolgate refused the call itself after a loop verdict or an abort: a saved call (core/figures.ts) */
  saved_call: boolean;
}

export interface AuditEventPayload {
  event: AuditEvent["kind"];
  session_id: string;
  turn: number;
  tool: string | null;
  tool_use_id: string | null;
  agent_id: string | null;
  timestamp: string;
  detail: Record<string, unknown>;
}

export type HookPayload = PermissionDeniedPayload | AuditEventPayload;

export function denialPayload(denial: DenialRecord): PermissionDeniedPayload {
  const record = withToolIdentity(denial);
  return {
    event: "permission_denied",
    session_id: record.sessionId,
    turn: record.turn,
    tool: record.tool,
    canonical_tool: record.canonicalTool,
    tool_family: record.toolFamily,
    tool_use_id: record.toolUseId,
    reason: record.reason,
    input_summary: record.inputSummary,
    timestamp: record.timestamp,
    source: record.source,
    signature: record.signature,
    rule: record.rule ?? null,
    decision_reason_type: record.decisionReasonType ?? null,
    agent_id: record.agentId ?? null,
    parent_session_id: record.parentSessionId ?? null,
    host: record.host ?? null,
    labels: record.labels ?? {},
    tool_input: record.input,
    seq: record.seq,
    saved_call: isSavedCall(record.source),
  };
}

export function auditEventPayload(event: AuditEvent): AuditEventPayload {
  return {
    event: event.kind,
    session_id: event.sessionId,
    turn: event.turn,
    tool: event.tool ?? null,
    tool_use_id: event.toolUseId ?? null,
    agent_id: event.agentId ?? null,
    timestamp: new Date(event.at).toISOString(),
    detail: event.detail,
  };
}

/**
 * What a hook or webhook receives: the payload and its idempotency key. Delivery is at least once (a command hook
 * that did its work but was timed out, or a process that exited before a hook's result came back, is run again
 * with the same payload), so every delivery carries the key a receiver deduplicates on, in the body as well as in
 * a webhook's `Idempotency-Key` header.
 */
export type DeliveredPayload = HookPayload & { idempotency_key: string };

export function deliveredPayload(payload: HookPayload): DeliveredPayload {
  return { ...payload, idempotency_key: idempotencyKey(payload) };
}

/** The idempotency key receivers deduplicate on: the tool_use_id for denials (agent-code's id), else a composite. */
export function idempotencyKey(payload: HookPayload): string {
  if (payload.event === "permission_denied") return payload.tool_use_id;
  return `${payload.session_id}:${payload.event}:${payload.tool_use_id ?? ""}:${payload.timestamp}`;
}
