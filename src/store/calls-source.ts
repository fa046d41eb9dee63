import { splitReportWindow } from "./report-window.js";

/** what narrows the denials a view counts; every field optional */
export interface CallsFilter {
  /** epoch ms, inclusive */
  since?: number;
  /** epoch ms, exclusive */
  until?: number;
  sessionId?: string;
  /** a canonical tool (core/tool-families.ts) */
  canonicalTool?: string;
  host?: string;
  /** a session label and the value it must have */
  label?: { key: string; value: string };
}

/** the columns every row of `callsFrom` has */
export const CALL_COLUMNS =
  "day, session_id, agent_id, tool, canonical_tool, signature, pattern, source, host, parent_session_id, n, first_id, first_at, last_at";

/**
 * A FROM-clause subquery (`(...) AS calls`) over the denials a filter selects, for both engines, with the rows of
 * `CALL_COLUMNS`: `n` denials of one call (day, session, agent, tool, signature, source, pattern, host, labels),
 * their first id and first and last time. Whole UTC days come from the `denial_daily_calls` rollup (migration
 * 0008), the partial days at the window's edges from `denials` one row each (`n` = 1), so a view reads a fraction of
 * the rows and counts exactly what `denials` holds: every aggregation over it uses `sum(n)`, never `count(*)`.
 * `add` binds a value and returns its placeholder, in the order they appear in the text.
 */
export function callsFrom(options: {
  filter: CallsFilter;
  engine: "sqlite" | "postgres";
  add: (value: string | number) => string;
}): string {
  const { filter, engine, add } = options;
  const window = splitReportWindow({
    ...(filter.since === undefined ? {} : { since: filter.since }),
    ...(filter.until === undefined ? {} : { until: filter.until }),
  });
  const common = () => {
    const parts: string[] = [];
    if (filter.sessionId !== undefined) parts.push(`session_id = ${add(filter.sessionId)}`);
    if (filter.canonicalTool !== undefined) parts.push(`canonical_tool = ${add(filter.canonicalTool)}`);
    if (filter.host !== undefined) parts.push(`host = ${add(filter.host)}`);
    if (filter.label !== undefined) {
      // the key's placeholder first: SQLite numbers `?` in the order they appear in the text
      const key = add(engine === "sqlite" ? `$."${filter.label.key}"` : filter.label.key);
      const value = add(filter.label.value);
      parts.push(engine === "sqlite" ? `json_extract(labels, ${key}) = ${value}` : `labels ->> ${key} = ${value}`);
    }
    return parts;
  };
  const branches: string[] = [];
  if (window.days) {
    const parts: string[] = [];
    if (window.days.from !== undefined) parts.push(`day >= ${add(window.days.from)}`);
    if (window.days.to !== undefined) parts.push(`day <= ${add(window.days.to)}`);
    parts.push(...common());
    branches.push(
      `SELECT day, session_id, NULLIF(agent, '') AS agent_id, tool, canonical_tool, signature, pattern, source,
        NULLIF(host, '') AS host, parent_session_id, total AS n, first_id, first_at, last_at
       FROM denial_daily_calls${parts.length === 0 ? "" : ` WHERE ${parts.join(" AND ")}`}`,
    );
  }
  for (const range of window.raw) {
    const parts: string[] = [];
    if (range.since !== undefined) parts.push(`at >= ${add(range.since)}`);
    if (range.until !== undefined) parts.push(`at < ${add(range.until)}`);
    parts.push(...common());
    branches.push(
      `SELECT day, session_id, agent_id, tool, canonical_tool, signature, pattern, source, host, parent_session_id,
        1 AS n, id AS first_id, at AS first_at, at AS last_at
       FROM denials${parts.length === 0 ? "" : ` WHERE ${parts.join(" AND ")}`}`,
    );
  }
  return `(${branches.join(" UNION ALL ")}) AS calls`;
}
