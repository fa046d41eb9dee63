import { utcDay } from "../../store/compute-report.js";
import type { SqlReader } from "./sql-reader.js";
import { SqlBuilder } from "./sql-reader.js";

/**
 * The values the filter pickers offer: every canonical tool denied in the window (from the daily rollups, one row per
 * day and signature), and the hosts and `key:value` labels of the sessions with a denial in the window (from the
 * per-session summary of migration 0009, one row per session: its smallest and largest host and label set, which
 * are all of them unless one session's denials carry three or more). Both stay fast on millions of denials. A value
 * typed into the URL that is not offered still works; the picker shows it.
 */
export async function queryFilterOptions(options: { reader: SqlReader; since: number }) {
  const { reader } = options;
  const toolsBuilder = new SqlBuilder(reader);
  const sessionsBuilder = new SqlBuilder(reader);
  const [tools, sessions] = await Promise.all([
    reader.all(
      `SELECT DISTINCT canonical_tool FROM denial_daily WHERE day >= ${toolsBuilder.value(utcDay(options.since))}`,
      toolsBuilder.params,
    ),
    reader.all(
      `SELECT DISTINCT host_min, host_max, labels_min, labels_max FROM denial_sessions
       WHERE last_at >= ${sessionsBuilder.value(options.since)}`,
      sessionsBuilder.params,
    ),
  ]);
  const hosts = new Set<string>();
  const labels = new Set<string>();
  const addLabels = (text: unknown) => {
    if (typeof text !== "string" || text === "" || text === "{}") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof value !== "object" || value === null) return;
    for (const [key, entry] of Object.entries(value)) if (typeof entry === "string") labels.add(`${key}:${entry}`);
  };
  for (const row of sessions) {
    for (const host of [row.host_min, row.host_max]) if (typeof host === "string" && host !== "") hosts.add(host);
    addLabels(row.labels_min);
    addLabels(row.labels_max);
  }
  return {
    tools: tools.map((row) => String(row.canonical_tool)).sort(),
    hosts: [...hosts].sort(),
    labels: [...labels].sort().slice(0, 200),
  };
}
