import { splitReportWindow } from "../../store/report-window.js";
import { callsFromFilters, type DashboardFilters, denialWhere, reportCovers } from "./dashboard-filters.js";
import { SqlBuilder, type SqlReader, type SqlRow } from "./sql-reader.js";

/**
 * Denials per UTC day and source for the filters' window, as rows `{ day, source, n }`. Without a host or label
 * filter, whole days come from the `denial_daily_sources` rollup (migration 0004) and only the partial days at the
 * window's edges from `denials`, as the store's report does; with one, the same split over the `denial_daily_calls`
 * rollup, which carries host and labels.
 */
export async function querySeriesBySource(options: {
  reader: SqlReader;
  filters: DashboardFilters;
}): Promise<SqlRow[]> {
  const { reader, filters } = options;
  const rawCount = (range: { since?: number; until?: number }) => {
    const builder = new SqlBuilder(reader);
    const where = denialWhere({
      filters: { ...filters, since: range.since ?? 0, until: range.until },
      builder,
      reader,
    });
    return reader.all(`SELECT day, source, count(*) AS n FROM denials ${where} GROUP BY day, source`, builder.params);
  };
  if (!reportCovers(filters)) {
    // a host or label filter: whole days from the `denial_daily_calls` rollup (migration 0008), edge days from rows
    const builder = new SqlBuilder(reader);
    const from = callsFromFilters({ filters, builder, reader });
    return reader.all(`SELECT day, source, sum(n) AS n FROM ${from} GROUP BY day, source`, builder.params);
  }
  const window = splitReportWindow({ since: filters.since, until: filters.until });
  const parts: Promise<SqlRow[]>[] = window.raw.map(rawCount);
  if (window.days) {
    const builder = new SqlBuilder(reader);
    const conditions = ["total > 0"];
    if (window.days.from !== undefined) conditions.push(`day >= ${builder.value(window.days.from)}`);
    if (window.days.to !== undefined) conditions.push(`day <= ${builder.value(window.days.to)}`);
    if (filters.tool !== undefined) conditions.push(`canonical_tool = ${builder.value(filters.tool)}`);
    parts.push(
      reader.all(
        `SELECT day, source, sum(total) AS n FROM denial_daily_sources WHERE ${conditions.join(" AND ")} GROUP BY day, source`,
        builder.params,
      ),
    );
  }
  const merged = new Map<string, SqlRow>();
  for (const row of (await Promise.all(parts)).flat()) {
    const key = `${row.day}\u0000${row.source}`;
    const known = merged.get(key);
    if (known) known.n = Number(known.n) + Number(row.n);
    else merged.set(key, { day: row.day, source: row.source, n: Number(row.n) });
  }
  return [...merged.values()].filter((row) => Number(row.n) > 0);
}
