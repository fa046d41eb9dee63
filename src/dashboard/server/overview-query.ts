import { compare } from "../../store/compute-report.js";
import type { CountByTool, DenialReport, DenialStore } from "../../store/ports.js";
import { INCIDENT_KINDS } from "../../store/report-sql.js";
import { type DashboardFilters, denialWhere, reportCovers } from "./dashboard-filters.js";
import { querySeriesBySource } from "./series-query.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/** sources where toolgate itself refused a call (a loop verdict, an aborted run): the call never reached the host */
export const SAVED_SOURCES = ["loop", "aborted"] as const;

export interface OverviewPattern {
  tool: string;
  pattern: string;
  count: number;
  variantCount: number;
}

export interface Overview {
  total: number;
  sessions: number;
  /** denials per UTC day and source: `counts[s][d]` is source `sources[s]` on day `days[d]` */
  bySource: { days: string[]; sources: string[]; counts: number[][] };
  perDay: { day: string; count: number }[];
  /** one row per canonical tool across hosts, with the host names counted under it */
  topTools: CountByTool[];
  topPatterns: OverviewPattern[];
  /** sessions with loop verdicts or aborts, most first */
  incidents: { sessionId: string; loops: number; aborts: number; denials: number }[];
  /** calls toolgate refused itself after a loop verdict or an abort (sources loop and aborted) */
  callsSaved: number;
  /** sessions toolgate aborted in the window */
  runsAborted: number;
  /** sessions with a loop verdict in the window */
  sessionsWithLoops: number;
  /** whether the ranked lists came from the store's report (same numbers as `toolgate report --json`) */
  fromReport: boolean;
}

/**
 * The overview: the store's own report for the window and tool (the numbers `toolgate report --json` prints), or,
 * when a host or label filter is set, the same figures in SQL over the filtered rows; plus the per-day series by
 * source (querySeriesBySource) and the saved-calls and aborted-runs counts, each one aggregation in SQL.
 */
export async function queryOverview(options: {
  reader: SqlReader;
  denials: Pick<DenialStore, "report">;
  filters: DashboardFilters;
  top: number;
}): Promise<Overview> {
  const { reader, filters, top } = options;
  const [series, report, runs, looped] = await Promise.all([
    querySeriesBySource({ reader, filters }),
    reportCovers(filters)
      ? options.denials.report({
          since: filters.since,
          top,
          ...(filters.until === undefined ? {} : { until: filters.until }),
          ...(filters.tool === undefined ? {} : { tool: filters.tool }),
        })
      : filteredReport({ reader, filters, top }),
    sessionsWithEvent({ reader, filters, kind: "run.aborted" }),
    sessionsWithEvent({ reader, filters, kind: "loop.detected" }),
  ]);
  const days = [...new Set(series.map((row) => String(row.day)))].sort(compare);
  const sources = [...new Set(series.map((row) => String(row.source)))].sort(compare);
  const counts = sources.map(() => days.map(() => 0));
  let callsSaved = 0;
  for (const row of series) {
    const count = Number(row.n);
    counts[sources.indexOf(String(row.source))]![days.indexOf(String(row.day))] = count;
    if ((SAVED_SOURCES as readonly string[]).includes(String(row.source))) callsSaved += count;
  }
  return {
    total: report.total,
    sessions: report.sessions,
    bySource: { days, sources, counts },
    perDay: report.perDay,
    topTools: report.topTools,
    topPatterns: report.topPatterns.map(({ tool, pattern, count, variantCount }) => ({
      tool,
      pattern,
      count,
      variantCount,
    })),
    incidents: report.incidents,
    callsSaved,
    runsAborted: runs,
    sessionsWithLoops: looped,
    fromReport: reportCovers(filters),
  };
}

/** the report's figures over rows a host or label filter narrows (the store's report has no such filters) */
async function filteredReport(options: { reader: SqlReader; filters: DashboardFilters; top: number }): Promise<
  Pick<DenialReport, "total" | "sessions" | "perDay" | "topTools" | "incidents"> & {
    topPatterns: OverviewPattern[];
  }
> {
  const { reader, filters, top } = options;
  const query = (sql: (where: string) => string) => {
    const builder = new SqlBuilder(reader);
    const where = denialWhere({ filters, builder, reader });
    return reader.all(sql(where), builder.params);
  };
  const [totals, days, tools, patterns, incidents] = await Promise.all([
    query((where) => `SELECT count(*) AS n, count(DISTINCT session_id) AS s FROM denials ${where}`),
    query((where) => `SELECT day, count(*) AS n FROM denials ${where} GROUP BY day`),
    query((where) => `SELECT canonical_tool, tool, count(*) AS n FROM denials ${where} GROUP BY canonical_tool, tool`),
    query(
      (where) =>
        `SELECT canonical_tool AS tool, pattern, count(*) AS n, count(DISTINCT signature) AS v FROM denials ${where} GROUP BY canonical_tool, pattern`,
    ),
    incidentRows({ reader, filters }),
  ]);
  const byCount =
    <T extends { count: number }>(key: (row: T) => string) =>
    (a: T, b: T) =>
      b.count - a.count || compare(key(a), key(b));
  return {
    total: Number(totals[0]?.n ?? 0),
    sessions: Number(totals[0]?.s ?? 0),
    perDay: days.map((row) => ({ day: String(row.day), count: Number(row.n) })).sort((a, b) => compare(a.day, b.day)),
    topTools: groupByCanonicalTool(tools)
      .sort(byCount((row) => row.tool))
      .slice(0, top),
    topPatterns: patterns
      .map((row) => ({
        tool: String(row.tool),
        pattern: String(row.pattern),
        count: Number(row.n),
        variantCount: Number(row.v),
      }))
      .sort(byCount((row) => `${row.tool}\u0000${row.pattern}`))
      .slice(0, top),
    incidents: incidents.slice(0, top),
  };
}

/** sessions of the filtered rows with loop verdicts or aborts in the window, most incidents first */
async function incidentRows(options: { reader: SqlReader; filters: DashboardFilters }) {
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const where = denialWhere({ filters, builder, reader });
  const since = builder.value(filters.since);
  const until = filters.until === undefined ? "" : ` AND e.at < ${builder.value(filters.until)}`;
  const kinds = INCIDENT_KINDS.map((kind) => builder.value(kind)).join(", ");
  const rows = await reader.all(
    `WITH matched AS (SELECT session_id, count(*) AS denials FROM denials ${where} GROUP BY session_id)
     SELECT e.session_id, sum(CASE WHEN e.kind = 'loop.detected' THEN 1 ELSE 0 END) AS loops,
       sum(CASE WHEN e.kind = 'run.aborted' THEN 1 ELSE 0 END) AS aborts, max(m.denials) AS denials
     FROM audit_events e JOIN matched m ON m.session_id = e.session_id
     WHERE e.at >= ${since}${until} AND e.kind IN (${kinds}) GROUP BY e.session_id`,
    builder.params,
  );
  return rows
    .map((row) => ({
      sessionId: String(row.session_id),
      loops: Number(row.loops),
      aborts: Number(row.aborts),
      denials: Number(row.denials),
    }))
    .sort((a, b) => b.loops + b.aborts - (a.loops + a.aborts) || compare(a.sessionId, b.sessionId));
}

/** sessions with an event of this kind in the window (narrowed to sessions with matching denials when filtered) */
async function sessionsWithEvent(options: {
  reader: SqlReader;
  filters: DashboardFilters;
  kind: "run.aborted" | "loop.detected";
}): Promise<number> {
  const { reader, filters } = options;
  const builder = new SqlBuilder(reader);
  const parts = [`kind = ${builder.value(options.kind)}`, `at >= ${builder.value(filters.since)}`];
  if (filters.until !== undefined) parts.push(`at < ${builder.value(filters.until)}`);
  if (filters.tool !== undefined || !reportCovers(filters)) {
    const inner = new SqlBuilder({ placeholder: (index) => reader.placeholder(builder.params.length + index) });
    const where = denialWhere({ filters, builder: inner, reader });
    builder.params.push(...inner.params);
    parts.push(`session_id IN (SELECT session_id FROM denials ${where})`);
  }
  const [row] = await reader.all(
    `SELECT count(DISTINCT session_id) AS n FROM audit_events WHERE ${parts.join(" AND ")}`,
    builder.params,
  );
  return Number(row?.n ?? 0);
}

/** rows of (canonical_tool, tool, n) as one entry per canonical tool, with the host names counted under it */
function groupByCanonicalTool(rows: Record<string, unknown>[]): CountByTool[] {
  const tools = new Map<string, CountByTool>();
  for (const row of rows) {
    const canonical = String(row.canonical_tool);
    const entry = tools.get(canonical) ?? { tool: canonical, count: 0, hostTools: [] };
    entry.count += Number(row.n);
    entry.hostTools.push(String(row.tool));
    tools.set(canonical, entry);
  }
  for (const entry of tools.values()) entry.hostTools.sort(compare);
  return [...tools.values()];
}
