import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/** the most timeline entries one request returns (denials and events each) */
export const TIMELINE_LIMIT = 1000;

export type TimelineEntry =
  | {
      type: "denial";
      id: number;
      at: number;
      agentId: string | null;
      turn: number;
      tool: string;
      source: string;
      reason: string;
      rule: string | null;
      summary: string;
    }
  | {
      type: "event";
      id: number;
      at: number;
      agentId: string | null;
      turn: number;
      kind: string;
      tool: string | null;
      detail: Record<string, unknown>;
    };

/**
 * One session as it happened: its denials and its audit events (escalations, the guidance and nudges sent, grants,
 * loop verdicts, the abort) in time order, its subagents and the sessions it started. The store keeps denials and
 * events, not allowed calls, so allowed calls are not on the timeline.
 */
export async function querySessionTimeline(options: { reader: SqlReader; sessionId: string }) {
  const { reader, sessionId } = options;
  const statement = (sql: (id: string) => string) => {
    const builder = new SqlBuilder(reader);
    const id = builder.value(sessionId);
    return reader.all(sql(id), builder.params);
  };
  const [denials, events, agents, children] = await Promise.all([
    statement(
      (id) =>
        `SELECT id, at, agent_id, turn, tool, source, reason, rule, input_summary, host, labels FROM denials
         WHERE session_id = ${id} ORDER BY at, id LIMIT ${TIMELINE_LIMIT}`,
    ),
    statement(
      (id) =>
        `SELECT id, at, agent_id, turn, kind, tool, detail FROM audit_events WHERE session_id = ${id}
         ORDER BY at, id LIMIT ${TIMELINE_LIMIT}`,
    ),
    statement(
      (id) =>
        `SELECT agent_id, count(*) AS n, min(at) AS first_at FROM denials WHERE session_id = ${id}
         AND agent_id IS NOT NULL GROUP BY agent_id ORDER BY first_at`,
    ),
    statement(
      (id) =>
        `SELECT session_id, count(*) AS n FROM denials WHERE parent_session_id = ${id} GROUP BY session_id
         ORDER BY session_id LIMIT 100`,
    ),
  ]);
  const entries: TimelineEntry[] = [
    ...denials.map(
      (row): TimelineEntry => ({
        type: "denial",
        id: Number(row.id),
        at: Number(row.at),
        agentId: row.agent_id == null ? null : String(row.agent_id),
        turn: Number(row.turn),
        tool: String(row.tool),
        source: String(row.source),
        reason: String(row.reason),
        rule: row.rule == null ? null : String(row.rule),
        summary: String(row.input_summary),
      }),
    ),
    ...events.map(
      (row): TimelineEntry => ({
        type: "event",
        id: Number(row.id),
        at: Number(row.at),
        agentId: row.agent_id == null ? null : String(row.agent_id),
        turn: Number(row.turn),
        kind: String(row.kind),
        tool: row.tool == null ? null : String(row.tool),
        detail: (reader.decodeJson(row.detail) ?? {}) as Record<string, unknown>,
      }),
    ),
  ].sort((a, b) => a.at - b.at || (a.type === b.type ? a.id - b.id : a.type === "denial" ? -1 : 1));
  const first = denials[0];
  return {
    sessionId,
    host: first?.host == null ? null : String(first.host),
    labels: first?.labels == null ? null : (reader.decodeJson(first.labels) as Record<string, string>),
    truncated: denials.length === TIMELINE_LIMIT || events.length === TIMELINE_LIMIT,
    entries,
    subagents: agents.map((row) => ({
      agentId: String(row.agent_id),
      denials: Number(row.n),
      firstAt: Number(row.first_at),
    })),
    childSessions: children.map((row) => ({ sessionId: String(row.session_id), denials: Number(row.n) })),
  };
}
