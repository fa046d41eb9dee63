import { utcDay } from "../../store/compute-report.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/** hosts and labels are offered from the newest rows: enough to fill the pickers without reading every row */
const RECENT_SAMPLE = 5000;

/**
 * The values the filter pickers offer: every canonical tool denied in the window (from the daily rollups, one row per day and
 * signature, so it stays fast on millions of denials), and the hosts and `key:value` labels of the newest rows.
 * A value typed into the URL that is not offered still works; the picker shows it.
 */
export async function queryFilterOptions(options: { reader: SqlReader; since: number }) {
  const { reader } = options;
  const toolsBuilder = new SqlBuilder(reader);
  const recentBuilder = new SqlBuilder(reader);
  const [tools, recent] = await Promise.all([
    reader.all(
      `SELECT DISTINCT canonical_tool FROM denial_daily WHERE day >= ${toolsBuilder.value(utcDay(options.since))}`,
      toolsBuilder.params,
    ),
    reader.all(
      `SELECT host, labels FROM denials ORDER BY id DESC LIMIT ${recentBuilder.value(RECENT_SAMPLE)}`,
      recentBuilder.params,
    ),
  ]);
  const hosts = new Set<string>();
  const labels = new Set<string>();
  for (const row of recent) {
    if (row.host != null) hosts.add(String(row.host));
    if (row.labels == null) continue;
    const value = reader.decodeJson(row.labels);
    if (typeof value !== "object" || value === null) continue;
    for (const [key, entry] of Object.entries(value)) if (typeof entry === "string") labels.add(`${key}:${entry}`);
  }
  return {
    tools: tools.map((row) => String(row.canonical_tool)).sort(),
    hosts: [...hosts].sort(),
    labels: [...labels].sort().slice(0, 200),
  };
}
