import {
  FIGURE_EVENT_KINDS,
  type FigureEvent,
  REPEATED_DENIAL_LOOP,
  SAVED_SOURCES,
  type SessionFacts,
} from "../core/figures.js";
import type { JsonDecoder } from "./denial-row.js";

type Row = Record<string, unknown>;
type Params = (string | number)[];

/**
 * The facts `core/figures.ts` turns into figures, gathered in SQL for both engines (the report and the dashboard
 * call this with their own filters, so every view counts the same way): per session its denials and saved calls,
 * its calls denied REPEATED_DENIAL_LOOP times or more, its patterns denied more than once, and its figure events.
 * `denials` writes the FROM clause of the denials counted (`callsFrom`: rows with a count `n`), binding its values
 * through `add`; `events` is a WHERE clause over `audit_events` (placeholders numbered from 1);
 * `eventsOfDeniedSessionsOnly` keeps the events of sessions with a matching denial (a tool, host or label filter
 * narrows the denials; the events carry no such field).
 */
export async function queryFigureFacts(options: {
  all: (sql: string, params: Params) => Promise<Row[]>;
  placeholder: (index: number) => string;
  decodeJson: JsonDecoder;
  denials: (add: (value: string | number) => string) => string;
  events: { where: string; params: Params };
  eventsOfDeniedSessionsOnly: boolean;
}): Promise<SessionFacts[]> {
  const { all, placeholder } = options;
  const saved = SAVED_SOURCES.map((source) => `'${source}'`).join(", ");
  const statement = (sql: (from: string) => string, params: Params = []) => {
    const add = (value: string | number) => {
      params.push(value);
      return placeholder(params.length);
    };
    return all(sql(options.denials(add)), params);
  };
  const eventParams = [...options.events.params];
  const eventParts = [options.events.where.replace(/^WHERE /, "")].filter((part) => part !== "");
  const kinds = FIGURE_EVENT_KINDS.map((kind) => {
    eventParams.push(kind);
    return placeholder(eventParams.length);
  });
  eventParts.push(`kind IN (${kinds.join(", ")})`);
  const eventsSql = (from?: string) =>
    `SELECT session_id, kind, tool, at, detail FROM audit_events WHERE ${eventParts.join(" AND ")}${
      from === undefined ? "" : ` AND session_id IN (SELECT session_id FROM ${from})`
    } ORDER BY at, id`;
  // one aggregation per (session, agent, tool, call, pattern) instead of one per figure: a single sort of the
  // window's rows; the per-session, per-call and per-pattern sums are added up here
  const [groups, events] = await Promise.all([
    statement(
      (from) =>
        `SELECT session_id, agent_id, tool, signature, pattern, sum(n) AS n,
          sum(CASE WHEN source IN (${saved}) THEN n ELSE 0 END) AS saved
         FROM ${from} GROUP BY session_id, agent_id, tool, signature, pattern`,
    ),
    options.eventsOfDeniedSessionsOnly
      ? statement((from) => eventsSql(from), eventParams)
      : all(eventsSql(), eventParams),
  ]);
  const facts = new Map<
    string,
    SessionFacts & { deniedCalls: SessionFacts["deniedCalls"][number][] } & {
      deniedPatterns: SessionFacts["deniedPatterns"][number][];
      events: FigureEvent[];
    }
  >();
  const entry = (sessionId: string) => {
    let found = facts.get(sessionId);
    if (found === undefined) {
      found = { sessionId, denials: 0, savedCalls: 0, deniedCalls: [], deniedPatterns: [], events: [] };
      facts.set(sessionId, found);
    }
    return found;
  };
  type Sum<K extends string> = { session: string; agentId: string | null; tool: string; count: number } & Record<
    K,
    string
  >;
  const calls = new Map<string, Sum<"signature">>();
  const patterns = new Map<string, Sum<"pattern">>();
  for (const row of groups) {
    const session = entry(String(row.session_id));
    const count = Number(row.n);
    session.denials += count;
    session.savedCalls += Number(row.saved ?? 0);
    const agentId = row.agent_id == null ? null : String(row.agent_id);
    const tool = String(row.tool);
    const base = `${session.sessionId}\u0000${agentId ?? "\u0001"}\u0000${tool}\u0000`;
    const signature = String(row.signature);
    const call = calls.get(`${base}${signature}`);
    if (call) call.count += count;
    else calls.set(`${base}${signature}`, { session: session.sessionId, agentId, tool, signature, count });
    const pattern = String(row.pattern);
    const known = patterns.get(`${base}${pattern}`);
    if (known) known.count += count;
    else patterns.set(`${base}${pattern}`, { session: session.sessionId, agentId, tool, pattern, count });
  }
  for (const call of calls.values()) {
    if (call.count < REPEATED_DENIAL_LOOP) continue;
    entry(call.session).deniedCalls.push({
      agentId: call.agentId,
      tool: call.tool,
      signature: call.signature,
      count: call.count,
    });
  }
  for (const pattern of patterns.values()) {
    if (pattern.count < 2) continue;
    entry(pattern.session).deniedPatterns.push({
      agentId: pattern.agentId,
      tool: pattern.tool,
      pattern: pattern.pattern,
      count: pattern.count,
    });
  }
  for (const row of events) {
    const detail = options.decodeJson(row.detail);
    entry(String(row.session_id)).events.push({
      kind: String(row.kind),
      tool: row.tool == null ? null : String(row.tool),
      at: Number(row.at),
      detail: detail !== null && typeof detail === "object" ? (detail as Record<string, unknown>) : {},
    });
  }
  return [...facts.values()];
}
