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
  loops: number;
  aborts: number;
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
  const incidents = new Map<string, { loops: number; aborts: number }>();
  if (rows.length > 0) {
    const events = new SqlBuilder(reader);
    const ids = rows.map((row) => events.value(String(row.session_id))).join(", ");
    const eventRows = await reader.all(
      `SELECT session_id, kind, count(*) AS n FROM audit_events WHERE session_id IN (${ids})
        AND kind IN (${events.value("loop.detected")}, ${events.value("run.aborted")}) GROUP BY session_id, kind`,
      events.params,
    );
    for (const row of eventRows) {
      const entry = incidents.get(String(row.session_id)) ?? { loops: 0, aborts: 0 };
      if (row.kind === "loop.detected") entry.loops = Number(row.n);
      else entry.aborts = Number(row.n);
      incidents.set(String(row.session_id), entry);
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
      loops: incidents.get(String(row.session_id))?.loops ?? 0,
      aborts: incidents.get(String(row.session_id))?.aborts ?? 0,
    })),
  };
}
