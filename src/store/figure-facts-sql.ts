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
 * call this with their own WHERE clauses, so every view counts the same way): per session its denials and saved
 * calls, its calls denied REPEATED_DENIAL_LOOP times or more, its patterns denied more than once, and its figure
 * events. `denials` and `events` are WHERE clauses over `denials` and `audit_events` (placeholders numbered from 1
 * in each); `eventsOfDeniedSessionsOnly` keeps the events of sessions with a matching denial (a tool, host or label
 * filter narrows the denials; the events carry no such field).
 */
export async function queryFigureFacts(options: {
  all: (sql: string, params: Params) => Promise<Row[]>;
  placeholder: (index: number) => string;
  decodeJson: JsonDecoder;
  denials: { where: string; params: Params };
  events: { where: string; params: Params };
  eventsOfDeniedSessionsOnly: boolean;
}): Promise<SessionFacts[]> {
  const { all, denials, placeholder } = options;
  const saved = SAVED_SOURCES.map((source) => `'${source}'`).join(", ");
  const eventParams = [...options.events.params];
  const eventParts = [options.events.where.replace(/^WHERE /, "")].filter((part) => part !== "");
  const kinds = FIGURE_EVENT_KINDS.map((kind) => {
    eventParams.push(kind);
    return placeholder(eventParams.length);
  });
  eventParts.push(`kind IN (${kinds.join(", ")})`);
  if (options.eventsOfDeniedSessionsOnly) {
    const shifted = renumber(denials.where, eventParams.length, placeholder);
    eventParams.push(...denials.params);
    eventParts.push(`session_id IN (SELECT session_id FROM denials ${shifted})`);
  }
  const [sessions, calls, patterns, events] = await Promise.all([
    all(
      `SELECT session_id, count(*) AS n, sum(CASE WHEN source IN (${saved}) THEN 1 ELSE 0 END) AS saved
       FROM denials ${denials.where} GROUP BY session_id`,
      denials.params,
    ),
    all(
      `SELECT session_id, agent_id, tool, signature, count(*) AS n FROM denials ${denials.where}
       GROUP BY session_id, agent_id, tool, signature HAVING count(*) >= ${REPEATED_DENIAL_LOOP}`,
      denials.params,
    ),
    all(
      `SELECT session_id, agent_id, tool, pattern, count(*) AS n FROM denials ${denials.where}
       GROUP BY session_id, agent_id, tool, pattern HAVING count(*) >= 2`,
      denials.params,
    ),
    all(
      `SELECT session_id, kind, tool, at, detail FROM audit_events WHERE ${eventParts.join(" AND ")} ORDER BY at, id`,
      eventParams,
    ),
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
  for (const row of sessions) {
    const session = entry(String(row.session_id));
    session.denials = Number(row.n);
    session.savedCalls = Number(row.saved ?? 0);
  }
  for (const row of calls) {
    entry(String(row.session_id)).deniedCalls.push({
      agentId: row.agent_id == null ? null : String(row.agent_id),
      tool: String(row.tool),
      signature: String(row.signature),
      count: Number(row.n),
    });
  }
  for (const row of patterns) {
    entry(String(row.session_id)).deniedPatterns.push({
      agentId: row.agent_id == null ? null : String(row.agent_id),
      tool: String(row.tool),
      pattern: String(row.pattern),
      count: Number(row.n),
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

/** a WHERE clause's placeholders numbered from `offset + 1` (Postgres `$n`; SQLite's `?` are positional anyway) */
function renumber(where: string, offset: number, placeholder: (index: number) => string): string {
  if (placeholder(1) === "?") return where;
  return where.replace(/\$(\d+)/g, (_, index: string) => placeholder(Number(index) + offset));
}
