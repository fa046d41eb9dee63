import { canonicalTool } from "../core/tool-families.js";
import type { ReportQuery } from "./ports.js";

/**
 * The WHERE clause shared by the report and query SQL of both engines. `placeholder(n)` renders the n-th parameter
 * (`?` for SQLite, `$n` for Postgres).
 */
export function whereClause(options: {
  query: Pick<ReportQuery, "since" | "until" | "sessionId" | "tool">;
  placeholder: (index: number) => string;
  startIndex?: number;
  extra?: { afterId?: number };
  /** `denials` (default): a tool filter matches by canonical tool; `audit_events` have only the host's name */
  table?: "denials" | "audit_events";
}): { sql: string; params: (string | number)[] } {
  const { query } = options;
  const parts: string[] = [];
  const params: (string | number)[] = [];
  const add = (condition: string, value: string | number) => {
    params.push(value);
    parts.push(condition.replace("?", options.placeholder((options.startIndex ?? 1) + params.length - 1)));
  };
  if (query.since !== undefined) add("at >= ?", query.since);
  if (query.until !== undefined) add("at < ?", query.until);
  if (query.sessionId !== undefined) add("session_id = ?", query.sessionId);
  if (query.tool !== undefined) {
    if (options.table === "audit_events") add("tool = ?", query.tool);
    else add("canonical_tool = ?", canonicalTool(query.tool));
  }
  if (options.extra?.afterId !== undefined) add("id > ?", options.extra.afterId);
  return { sql: parts.length === 0 ? "" : `WHERE ${parts.join(" AND ")}`, params };
}
