import { type AuditEvent, type DenialRecord, withToolIdentity } from "../core/records.js";
import { canonicalTool, type ToolFamily, toolFamily } from "../core/tool-families.js";
import { utcDay } from "./compute-report.js";
import type { KeyedAuditEvent, StoredAuditEvent, StoredDenial } from "./ports.js";

/**
 * A denial record's identity, as one string: (session, seq, at, tool-use id). The SQL stores enforce the same
 * tuple with a unique index (migration 0003). Two records share it only if they are the same denial: a spool
 * replay or a write that timed out but committed. Records of two numbering epochs of one session (seq restarted
 * from 1) differ in `at` and `toolUseId`.
 */
export function denialIdentity(record: DenialRecord): string {
  return JSON.stringify([record.sessionId, record.seq, record.at, record.toolUseId]);
}

/**
 * Mapping between records (camelCase) and rows (snake_case columns, the same names on every engine and in hook
 * payloads). JSON columns arrive as text (SQLite) or parsed values (Postgres JSONB).
 */
export const DENIAL_COLUMNS = [
  "session_id",
  "seq",
  "parent_session_id",
  "agent_id",
  "turn",
  "tool",
  "tool_use_id",
  "source",
  "reason",
  "rule",
  "decision_reason_type",
  "signature",
  "pattern",
  "input_summary",
  "tool_input",
  "at",
  "day",
  "timestamp",
  "host",
  "labels",
  "canonical_tool",
  "tool_family",
] as const;

/** index of `day` in DENIAL_COLUMNS */
export const DAY_COLUMN = DENIAL_COLUMNS.indexOf("day");
/** index of `canonical_tool` in DENIAL_COLUMNS */
export const CANONICAL_TOOL_COLUMN = DENIAL_COLUMNS.indexOf("canonical_tool");

export type DenialRowValues = (string | number | null)[];

/** column values in DENIAL_COLUMNS order; JSON columns as text */
export function denialRowValues(record: DenialRecord): DenialRowValues {
  const identity = withToolIdentity(record);
  return [
    record.sessionId,
    record.seq,
    record.parentSessionId ?? null,
    record.agentId ?? null,
    record.turn,
    record.tool,
    record.toolUseId,
    record.source,
    record.reason,
    record.rule ?? null,
    record.decisionReasonType ?? null,
    record.signature,
    record.pattern,
    record.inputSummary,
    JSON.stringify(record.input ?? null),
    record.at,
    utcDay(record.at),
    record.timestamp,
    record.host ?? null,
    record.labels === undefined ? null : JSON.stringify(record.labels),
    identity.canonicalTool,
    identity.toolFamily,
  ];
}

/** `decode` turns a JSON column into a value: JSON.parse for SQLite text, identity for Postgres JSONB */
export function rowToDenial(row: Record<string, unknown>, decode: JsonDecoder = parseJson): StoredDenial {
  const stored: StoredDenial = {
    id: Number(row.id),
    seq: Number(row.seq),
    sessionId: String(row.session_id),
    turn: Number(row.turn),
    tool: String(row.tool),
    canonicalTool: row.canonical_tool == null ? canonicalTool(String(row.tool)) : String(row.canonical_tool),
    toolFamily: row.tool_family == null ? toolFamily(String(row.tool)) : (String(row.tool_family) as ToolFamily),
    toolUseId: String(row.tool_use_id),
    source: row.source as StoredDenial["source"],
    reason: String(row.reason),
    signature: String(row.signature),
    pattern: String(row.pattern),
    inputSummary: String(row.input_summary),
    input: decode(row.tool_input),
    at: Number(row.at),
    timestamp: String(row.timestamp),
  };
  if (row.parent_session_id != null) stored.parentSessionId = String(row.parent_session_id);
  if (row.agent_id != null) stored.agentId = String(row.agent_id);
  if (row.rule != null) stored.rule = String(row.rule);
  if (row.decision_reason_type != null) stored.decisionReasonType = String(row.decision_reason_type);
  if (row.host != null) stored.host = String(row.host);
  if (row.labels != null) stored.labels = decode(row.labels) as Record<string, string>;
  return stored;
}

export const EVENT_COLUMNS = [
  "kind",
  "session_id",
  "agent_id",
  "turn",
  "at",
  "tool",
  "tool_use_id",
  "detail",
  "event_key",
] as const;

export function eventRowValues(event: KeyedAuditEvent): DenialRowValues {
  return [
    event.kind,
    event.sessionId,
    event.agentId ?? null,
    event.turn,
    event.at,
    event.tool ?? null,
    event.toolUseId ?? null,
    JSON.stringify(event.detail ?? {}),
    event.eventKey ?? null,
  ];
}

export function rowToEvent(row: Record<string, unknown>, decode: JsonDecoder = parseJson): StoredAuditEvent {
  const event: StoredAuditEvent = {
    id: Number(row.id),
    kind: row.kind as AuditEvent["kind"],
    sessionId: String(row.session_id),
    turn: Number(row.turn),
    at: Number(row.at),
    detail: decode(row.detail) as Record<string, unknown>,
  };
  if (row.agent_id != null) event.agentId = String(row.agent_id);
  if (row.tool != null) event.tool = String(row.tool);
  if (row.tool_use_id != null) event.toolUseId = String(row.tool_use_id);
  return event;
}

export type JsonDecoder = (value: unknown) => unknown;

/** SQLite: JSON columns are text */
export const parseJson: JsonDecoder = (value) => JSON.parse(String(value));

/** Postgres: node-postgres already parsed JSONB */
export const parsedJson: JsonDecoder = (value) => value;
