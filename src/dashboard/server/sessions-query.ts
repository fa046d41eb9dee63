import { type SessionFigures, type SessionStatus, sessionFigures } from "../../core/figures.js";
import { queryFigureFacts } from "../../store/figure-facts-sql.js";
import { type DashboardFilters, denialWhere } from "./dashboard-filters.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

export const SESSION_SORTS = {
  last: "last_at",
  first: "first_at",
  denials: "denials",
  session: "session_id",
} as const;
export type SessionSort = keyof typeof SESSION_SORTS;

export interface SessionRow {
  sessionId: string;
  host: string | null;
  parentSessionId: string | null;
  firstAt: number;
  lastAt: number;
  denials: number;
  tools: number;
  subagents: number;
  /** loops, waste, saved calls and status: core/figures.ts */
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
}

/**
 * One page of sessions with denials under the filters, sorted in SQL (ties by session id) and counted with one
 * more aggregation; loops and aborts for the page's sessions only.
 */
export async function querySessions(options: {
  reader: SqlReader;
  filters: DashboardFilters;
  sort: SessionSort;
  descending: boolean;
  page: number;
  pageSize: number;
}): Promise<{ total: number; page: number; pageSize: number; rows: SessionRow[] }> {
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const where = denialWhere({ filters, builder, reader });
  const direction = options.descending ? "DESC" : "ASC";
  const limit = builder.value(options.pageSize);
  const offset = builder.value(options.page * options.pageSize);
  const countBuilder = new SqlBuilder(reader);
  const countWhere = denialWhere({ filters, builder: countBuilder, reader });
  const [rows, counted] = await Promise.all([
    reader.all(
      `SELECT session_id, max(host) AS host, max(parent_session_id) AS parent, min(at) AS first_at, max(at) AS last_at,
        count(*) AS denials, count(DISTINCT tool) AS tools, count(DISTINCT agent_id) AS subagents
       FROM denials ${where} GROUP BY session_id
       ORDER BY ${SESSION_SORTS[options.sort]} ${direction}, session_id ${direction} LIMIT ${limit} OFFSET ${offset}`,
      builder.params,
    ),
    reader.all(`SELECT count(DISTINCT session_id) AS n FROM denials ${countWhere}`, countBuilder.params),
  ]);
  // loops, waste and status of the page's sessions as core/figures.ts defines them (the overview's own way)
  const figures = new Map<string, SessionFigures & { aborts: number }>();
  if (rows.length > 0) {
    const denials = new SqlBuilder(reader);
    const denialsWhere = denialWhere({ filters, builder: denials, reader });
    const ids = rows.map((row) => denials.value(String(row.session_id))).join(", ");
    const events = new SqlBuilder(reader);
    const eventParts = [`at >= ${events.value(filters.since)}`];
    if (filters.until !== undefined) eventParts.push(`at < ${events.value(filters.until)}`);
    const eventIds = rows.map((row) => events.value(String(row.session_id))).join(", ");
    const facts = await queryFigureFacts({
      all: (sql, params) => reader.all(sql, params),
      placeholder: (index) => reader.placeholder(index),
      decodeJson: reader.decodeJson,
      denials: { where: `${denialsWhere} AND session_id IN (${ids})`, params: denials.params },
      events: { where: `WHERE ${eventParts.join(" AND ")} AND session_id IN (${eventIds})`, params: events.params },
      eventsOfDeniedSessionsOnly: false,
    });
    for (const session of facts) {
      const aborts = session.events.filter((event) => event.kind === "run.aborted").length;
      figures.set(session.sessionId, { ...sessionFigures(session), aborts });
    }
  }
  return {
    total: Number(counted[0]?.n ?? 0),
    page: options.page,
    pageSize: options.pageSize,
    rows: rows.map((row) => ({
      sessionId: String(row.session_id),
      host: row.host == null ? null : String(row.host),
      parentSessionId: row.parent == null ? null : String(row.parent),
      firstAt: Number(row.first_at),
      lastAt: Number(row.last_at),
      denials: Number(row.denials),
      tools: Number(row.tools),
      subagents: Number(row.subagents),
      loops: figures.get(String(row.session_id))?.loops.length ?? 0,
      aborts: figures.get(String(row.session_id))?.aborts ?? 0,
      wastedCalls: figures.get(String(row.session_id))?.wastedCalls ?? 0,
      wastedTokens: figures.get(String(row.session_id))?.wastedTokens ?? null,
      savedCalls: figures.get(String(row.session_id))?.savedCalls ?? 0,
      status: figures.get(String(row.session_id))?.status ?? "clean",
    })),
  };
}
