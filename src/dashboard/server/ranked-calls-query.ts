import { compare } from "../../store/compute-report.js";
import type { CountBySignature } from "../../store/ports.js";
import { callsFromFilters, type DashboardFilters } from "./dashboard-filters.js";
import { SqlBuilder, type SqlReader } from "./sql-reader.js";

/** ids per `IN (...)` lookup */
const ID_CHUNK = 500;

/**
 * The most-denied calls under filters the store's report cannot apply (host, label), with the report's meaning:
 * counts descending, ties by signature in byte order, each call spoken for by its first denial in the window
 * (its sample, and whether an explicit deny rule denied it).
 */
export async function queryRankedCalls(options: {
  reader: SqlReader;
  filters: DashboardFilters;
  top: number;
}): Promise<{ total: number; calls: CountBySignature[] }> {
  const { reader } = options;
  const builder = new SqlBuilder(reader);
  const from = callsFromFilters({ filters: options.filters, builder, reader });
  const grouped = await reader.all(
    `SELECT signature, sum(n) AS n, min(first_id) AS first_id FROM ${from} GROUP BY signature`,
    builder.params,
  );
  const ranked = grouped
    .map((row) => ({ signature: String(row.signature), count: Number(row.n), firstId: Number(row.first_id) }))
    .sort((a, b) => b.count - a.count || compare(a.signature, b.signature))
    .slice(0, options.top);
  const firstRows = new Map<number, Record<string, unknown>>();
  for (let start = 0; start < ranked.length; start += ID_CHUNK) {
    const ids = new SqlBuilder(reader);
    const list = ranked
      .slice(start, start + ID_CHUNK)
      .map((entry) => ids.value(entry.firstId))
      .join(", ");
    const rows = await reader.all(
      `SELECT id, tool, canonical_tool, source, rule, input_summary, tool_input FROM denials WHERE id IN (${list})`,
      ids.params,
    );
    for (const row of rows) firstRows.set(Number(row.id), row);
  }
  return {
    total: grouped.reduce((sum, row) => sum + Number(row.n), 0),
    calls: ranked.map((entry) => {
      const row = firstRows.get(entry.firstId) ?? {};
      const deniedByRule = row.source === "rule";
      return {
        tool: String(row.tool),
        canonicalTool: String(row.canonical_tool),
        signature: entry.signature,
        count: entry.count,
        sample: { inputSummary: String(row.input_summary), input: reader.decodeJson(row.tool_input) },
        deniedByRule,
        denyRule: deniedByRule && typeof row.rule === "string" ? row.rule : null,
        source: String(row.source),
      };
    }),
  };
}
