import { type DashboardFilters, denialWhere } from "./dashboard-filters.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

export interface LiveDenial {
  id: number;
  at: number;
  sessionId: string;
  host: string | null;
  tool: string;
  source: string;
  rule: string | null;
  reason: string;
  summary: string;
}

/** the store's high-water mark: the newest denial's id (0 when empty) */
export async function denialHighWaterMark(reader: SqlReader): Promise<number> {
  const [row] = await reader.all("SELECT coalesce(max(id), 0) AS id FROM denials", []);
  return Number(row?.id ?? 0);
}

/** denials stored after `afterId` that match the host, tool and label filters, oldest first, at most `limit` */
export async function denialsAfter(options: {
  reader: SqlReader;
  afterId: number;
  /** the newest id to read (the high-water mark when the poll began) */
  upToId?: number;
  limit: number;
  filters?: Omit<DashboardFilters, "since" | "until">;
}) {
  const { reader } = options;
  const builder = new SqlBuilder(reader);
  // the feed has no time window: every row after the high-water mark, narrowed by the other filters
  const where = denialWhere({ filters: { ...options.filters, since: 0 }, builder, reader });
  const rows = await reader.all(
    `SELECT id, at, session_id, host, tool, source, rule, reason, input_summary FROM denials
     ${where} AND id > ${builder.value(options.afterId)}${options.upToId === undefined ? "" : ` AND id <= ${builder.value(options.upToId)}`} ORDER BY id LIMIT ${builder.value(options.limit)}`,
    builder.params,
  );
  return rows.map(
    (row): LiveDenial => ({
      id: Number(row.id),
      at: Number(row.at),
      sessionId: String(row.session_id),
      host: row.host == null ? null : String(row.host),
      tool: String(row.tool),
      source: String(row.source),
      rule: row.rule == null ? null : String(row.rule),
      reason: String(row.reason),
      summary: String(row.input_summary),
    }),
  );
}
