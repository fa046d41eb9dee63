import type { Figures } from "../../core/figures.js";
import { compare } from "../../store/compute-report.js";
import { queryFigureFacts } from "../../store/figure-facts-sql.js";
import type { CountByTool, DenialReport, DenialStore, SessionIncident } from "../../store/ports.js";
import { countSession, figuresOfSessions, reportFigures } from "../../store/report-figures.js";
import { SUMMARY_REST_LIMIT, summarySessions } from "../../store/session-summary-sql.js";
import { callsFromFilters, type DashboardFilters, reportCovers } from "./dashboard-filters.js";
import { querySeriesBySource } from "./series-query.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

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
  /** sessions whose status is not clean (core/figures.ts), most loops and aborts first */
  incidents: SessionIncident[];
  /** calls toolgate refused itself after a loop verdict or an abort (core/figures.ts: saved calls) */
  callsSaved: number;
  /** sessions toolgate aborted in the window */
  runsAborted: number;
  /** sessions with a loop (toolgate's verdict or the host's repeated denials) in the window */
  sessionsWithLoops: number;
  /** every figure of core/figures.ts over the filtered window: the same numbers as `toolgate report --json` */
  figures: Figures;
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
  const [series, report] = await Promise.all([
    querySeriesBySource({ reader, filters }),
    reportCovers(filters)
      ? options.denials.report({
          since: filters.since,
          top,
          ...(filters.until === undefined ? {} : { until: filters.until }),
          ...(filters.tool === undefined ? {} : { tool: filters.tool }),
        })
      : filteredReport({ reader, filters, top }),
  ]);
  const days = [...new Set(series.map((row) => String(row.day)))].sort(compare);
  const sources = [...new Set(series.map((row) => String(row.source)))].sort(compare);
  const counts = sources.map(() => days.map(() => 0));
  for (const row of series) {
    counts[sources.indexOf(String(row.source))]![days.indexOf(String(row.day))] = Number(row.n);
  }
  const { figures } = report;
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
    callsSaved: figures.savedCalls,
    runsAborted: figures.status.aborted,
    sessionsWithLoops: figures.sessionsWithLoops,
    figures,
    fromReport: reportCovers(filters),
  };
}

/** the report's figures over rows a host or label filter narrows (the store's report has no such filters) */
async function filteredReport(options: { reader: SqlReader; filters: DashboardFilters; top: number }): Promise<
  Pick<DenialReport, "total" | "sessions" | "perDay" | "topTools" | "incidents" | "figures"> & {
    topPatterns: OverviewPattern[];
  }
> {
  const { reader, filters, top } = options;
  const query = (sql: (from: string) => string) => {
    const builder = new SqlBuilder(reader);
    const from = callsFromFilters({ filters, builder, reader });
    return reader.all(sql(from), builder.params);
  };
  const [totals, days, tools, patterns, figures] = await Promise.all([
    query((from) => `SELECT sum(n) AS n, count(DISTINCT session_id) AS s FROM ${from}`),
    query((from) => `SELECT day, sum(n) AS n FROM ${from} GROUP BY day`),
    query((from) => `SELECT canonical_tool, tool, sum(n) AS n FROM ${from} GROUP BY canonical_tool, tool`),
    query(
      (from) =>
        `SELECT canonical_tool AS tool, pattern, sum(n) AS n, count(DISTINCT signature) AS v FROM ${from} GROUP BY canonical_tool, pattern`,
    ),
    filteredFigures({ reader, filters, top }),
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
    ...figures,
  };
}

/**
 * loops, waste, saved calls and status over the filtered rows (core/figures.ts, the report's own SQL): without a
 * tool filter, the sessions wholly in the window and wholly in or out of the host and label filters from the
 * per-session summary (migration 0009), the others from their calls
 */
export async function filteredFigures(options: { reader: SqlReader; filters: DashboardFilters; top: number }) {
  const { reader, filters } = options;
  const deniedOnly = !reportCovers(filters) || filters.tool !== undefined;
  const facts = async (sessionIds?: string[]) => {
    const events = new SqlBuilder(reader);
    const eventParts = [`at >= ${events.value(filters.since)}`];
    if (filters.until !== undefined) eventParts.push(`at < ${events.value(filters.until)}`);
    if (sessionIds !== undefined)
      eventParts.push(`session_id IN (${sessionIds.map((id) => events.value(id)).join(", ")})`);
    return queryFigureFacts({
      all: (sql, params) => reader.all(sql, params),
      placeholder: (index) => reader.placeholder(index),
      decodeJson: reader.decodeJson,
      denials: (add) => {
        const from = callsFromFilters({ filters, builder: { value: add }, reader });
        return sessionIds === undefined ? from : `${from} WHERE session_id IN (${sessionIds.map(add).join(", ")})`;
      },
      events: { where: `WHERE ${eventParts.join(" AND ")}`, params: events.params },
      eventsOfDeniedSessionsOnly: deniedOnly,
    });
  };
  if (filters.tool === undefined) {
    const summary = await summarySessions({ reader, filters });
    if (summary.rest.length <= SUMMARY_REST_LIMIT) {
      const rest = summary.rest.length === 0 ? [] : await facts(summary.rest);
      return figuresOfSessions([...summary.rows, ...(deniedOnly ? [] : summary.eventOnly), ...rest.map(countSession)], {
        top: options.top,
      });
    }
  }
  return reportFigures(await facts(), { top: options.top });
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
