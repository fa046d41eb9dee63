import type { StoredDenial } from "../../store/ports.js";

/**
 * One denial as `toolgate tail --json` prints it: every key of a stored denial, null when the record has none. A
 * field added to the record is a type error here until the document (and docs/cli.md) has it.
 */
export function denialDocument(record: StoredDenial) {
  return {
    id: record.id,
    seq: record.seq,
    timestamp: record.timestamp,
    at: record.at,
    sessionId: record.sessionId,
    parentSessionId: record.parentSessionId ?? null,
    agentId: record.agentId ?? null,
    turn: record.turn,
    host: record.host ?? null,
    tool: record.tool,
    canonicalTool: record.canonicalTool,
    toolFamily: record.toolFamily,
    toolUseId: record.toolUseId,
    source: record.source,
    reason: record.reason,
    rule: record.rule ?? null,
    decisionReasonType: record.decisionReasonType ?? null,
    signature: record.signature,
    pattern: record.pattern,
    inputSummary: record.inputSummary,
    input: record.input ?? null,
    labels: record.labels ?? null,
  } satisfies Record<keyof StoredDenial, unknown>;
}
