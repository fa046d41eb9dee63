import type { DenialSource } from "./events.js";
import { type ToolFamily, toolIdentity } from "./tool-families.js";

/**
 * One `permission_denied` record: the unit of the audit trail. Built by the reducer from a `call.denied` event,
 * with the input already redacted and summarised. Field names follow agent-code's hook payload where they overlap
 * (`session_id, turn, tool, tool_use_id, reason, input_summary, timestamp`), in camelCase here and snake_case in
 * the stores and hook payloads (`audit/record-payload.ts`).
 */
export interface DenialRecord {
  /**
   * 1-based position in the session's monotonic denial count. Unique within one numbering of the session only: it
   * restarts from 1 when the session's state is lost; stores identify a record by (sessionId, seq, at, toolUseId).
   */
  seq: number;
  sessionId: string;
  parentSessionId?: string;
  /** subagent id; absent for the main agent */
  agentId?: string;
  /** turn number within the session (0 before the first user message) */
  turn: number;
  /** the tool's name as the host sent it (`Bash`, `exec_command`, `run_shell_command`, ...) */
  tool: string;
  /**
   * the host-neutral name of the tool (core/tool-families.ts): `shell` for every shell tool; views group by it. The
   * reducer always sets it; a record made elsewhere without it gets it from `tool` when stored or sent
   * (`withToolIdentity`)
   */
  canonicalTool?: string;
  /** the tool's family (core/tool-families.ts); set with `canonicalTool` */
  toolFamily?: ToolFamily;
  toolUseId: string;
  source: DenialSource;
  /** redacted */
  reason: string;
  rule?: string;
  decisionReasonType?: string;
  signature: string;
  pattern: string;
  /** redacted, at most 200 characters */
  inputSummary: string;
  /** the redacted tool input */
  input: unknown;
  /** epoch milliseconds of the denial event */
  at: number;
  /** ISO-8601 of `at` */
  timestamp: string;
  host?: string;
  labels?: Record<string, string>;
}

/** The kinds of audit event beside denial records. Every one is redacted before it leaves the core. */
export type AuditEventKind =
  | "denial.recorded"
  | "escalation.reached"
  | "grant.offered"
  | "grant.recorded"
  | "grant.declined"
  | "grant.revoked"
  | "nudge.sent"
  | "run.aborted"
  | "loop.detected"
  | "session.summary"
  | "session.info";

export interface AuditEvent {
  kind: AuditEventKind;
  sessionId: string;
  agentId?: string;
  turn: number;
  at: number;
  tool?: string;
  toolUseId?: string;
  /** event-specific details, redacted */
  detail: Record<string, unknown>;
}

/** A denial record whose tool identity is set (every record the reducer makes, every stored record). */
export type IdentifiedDenialRecord = DenialRecord & { canonicalTool: string; toolFamily: ToolFamily };

/** A record with its tool identity filled from the one table when the record was made without it. */
export function withToolIdentity<T extends DenialRecord>(record: T): T & IdentifiedDenialRecord {
  if (record.canonicalTool !== undefined && record.toolFamily !== undefined)
    return record as T & IdentifiedDenialRecord;
  const identity = toolIdentity(record.tool);
  return { ...record, canonicalTool: identity.canonical, toolFamily: identity.family };
}
