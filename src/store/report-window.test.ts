import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utcDay } from "./compute-report.js";
import { splitReportWindow } from "./report-window.js";

const DAY = 86_400_000;

describe("splitReportWindow", () => {
  it("answers mid-day edges from raw rows and whole days from rollups", () => {
    const since = Date.UTC(2026, 10, 15, 10);
    const until = Date.UTC(2026, 10, 20, 6);
    expect(splitReportWindow({ since, until })).toEqual({
      days: { from: "2026-11-16", to: "2026-11-19" },
      raw: [
        { since, until: Date.UTC(2026, 10, 16) },
        { since: Date.UTC(2026, 10, 20), until },
      ],
    });
    expect(splitReportWindow({})).toEqual({ days: {}, raw: [] });
    expect(splitReportWindow({ since: Date.UTC(2026, 0, 1) })).toEqual({ days: { from: "2026-01-01" }, raw: [] });
  });

  it("covers every instant of the window exactly once (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 40 * DAY }),
        fc.integer({ min: 0, max: 40 * DAY }),
        fc.integer({ min: 0, max: 40 * DAY }),
        fc.boolean(),
        fc.boolean(),
        (a, b, probe, hasSince, hasUntil) => {
          const base = Date.UTC(2026, 0, 1);
          const since = hasSince ? base + Math.min(a, b) : undefined;
          const until = hasUntil ? base + Math.max(a, b) : undefined;
          const at = base + probe;
          const window = splitReportWindow({ since, until });
          const inWindow = (since === undefined || at >= since) && (until === undefined || at < until);
          const day = utcDay(at);
          const inDays =
            window.days !== undefined &&
            (window.days.from === undefined || day >= window.days.from) &&
            (window.days.to === undefined || day <= window.days.to);
          const inRaw = window.raw.filter(
            (range) =>
              (range.since === undefined || at >= range.since) && (range.until === undefined || at < range.until),
          ).length;
          expect(Number(inDays) + inRaw).toBe(inWindow ? 1 : 0);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
