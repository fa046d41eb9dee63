import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/** labels are offered from the newest rows only: enough to fill the picker without reading every row */
const LABEL_SAMPLE = 2000;

/** The values the filter pickers offer for a window: tools, hosts, and `key:value` labels seen recently. */
export async function queryFilterOptions(options: { reader: SqlReader; since: number }) {
  const { reader } = options;
  const distinct = (column: string) => {
    const builder = new SqlBuilder(reader);
    return reader.all(
      `SELECT DISTINCT ${column} AS value FROM denials WHERE at >= ${builder.value(options.since)} AND ${column} IS NOT NULL`,
      builder.params,
    );
  };
  const labelsBuilder = new SqlBuilder(reader);
  const [tools, hosts, labelRows] = await Promise.all([
    distinct("tool"),
    distinct("host"),
    reader.all(
      `SELECT labels FROM denials WHERE labels IS NOT NULL ORDER BY id DESC LIMIT ${labelsBuilder.value(LABEL_SAMPLE)}`,
      labelsBuilder.params,
    ),
  ]);
  const labels = new Set<string>();
  for (const row of labelRows) {
    const value = reader.decodeJson(row.labels);
    if (typeof value !== "object" || value === null) continue;
    for (const [key, entry] of Object.entries(value)) if (typeof entry === "string") labels.add(`${key}:${entry}`);
  }
  const sorted = (rows: Record<string, unknown>[]) => rows.map((row) => String(row.value)).sort();
  return { tools: sorted(tools), hosts: sorted(hosts), labels: [...labels].sort().slice(0, 200) };
}
