import { utcDay } from "./compute-report.js";
import type { ReportQuery } from "./ports.js";

const DAY = 86_400_000;

/**
 * Splits a report window into whole UTC days (answered from the daily rollups) and the partial days at its edges
 * (answered from the raw rows through the `at` index), so reports stay exact for any `since`/`until` while reading
 * one rollup row per day and signature instead of every denial.
 */
export interface ReportWindow {
  /** inclusive range of whole days for the rollups; absent when no whole day is inside the window */
  days?: { from?: string; to?: string };
  /** raw-row ranges [since, until) for the partial edge days */
  raw: { since?: number; until?: number }[];
}

export function splitReportWindow(query: Pick<ReportQuery, "since" | "until">): ReportWindow {
  const { since, until } = query;
  const startOfDay = (at: number) => Math.floor(at / DAY) * DAY;
  const firstWhole = since === undefined ? undefined : since === startOfDay(since) ? since : startOfDay(since) + DAY;
  const endWhole = until === undefined ? undefined : startOfDay(until); // exclusive
  if (firstWhole !== undefined && endWhole !== undefined && firstWhole >= endWhole) {
    return { raw: [{ ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) }] };
  }
  const raw: ReportWindow["raw"] = [];
  if (since !== undefined && firstWhole !== since) raw.push({ since, until: firstWhole! });
  if (until !== undefined && endWhole !== until) raw.push({ since: endWhole!, until });
  const days: NonNullable<ReportWindow["days"]> = {};
  if (firstWhole !== undefined) days.from = utcDay(firstWhole);
  if (endWhole !== undefined) days.to = utcDay(endWhole - DAY);
  return { days, raw };
}
