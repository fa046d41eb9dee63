import { utcDay } from "./compute-report.js";
import type { ReportQuery } from "./ports.js";

const DAY = 86_400_000;
/** 10000-01-01: a later day is written `+010000-01-01`, which sorts before every stored `YYYY-MM-DD` day */
const FIRST_FIVE_DIGIT_YEAR = Date.UTC(10_000, 0, 1);

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
  // a window starting after year 9999 holds no stored day: its raw range alone answers (nothing)
  if (
    (firstWhole !== undefined && firstWhole >= FIRST_FIVE_DIGIT_YEAR) ||
    (firstWhole !== undefined && endWhole !== undefined && firstWhole >= endWhole)
  ) {
    return { raw: [{ ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) }] };
  }
  const raw: ReportWindow["raw"] = [];
  if (since !== undefined && firstWhole !== since) raw.push({ since, until: firstWhole! });
  // a window ending after year 9999 has no upper bound among stored days
  const farEnd = endWhole !== undefined && endWhole >= FIRST_FIVE_DIGIT_YEAR;
  if (until !== undefined && endWhole !== until && !farEnd) raw.push({ since: endWhole!, until });
  const days: NonNullable<ReportWindow["days"]> = {};
  if (firstWhole !== undefined) days.from = utcDay(firstWhole);
  if (endWhole !== undefined && !farEnd) days.to = utcDay(endWhole - DAY);
  return { days, raw };
}
