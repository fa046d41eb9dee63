import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../../src/core/records.js";
import { createSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { makeRecord } from "../../store/fixtures.js";
import { type DashboardFixture, startDashboardFixture } from "./dashboard-fixture.js";

/**
 * Issue 26 problems 1 and 5 in Chromium: the chart's axis is the chosen window (not the data's extent), its ticks
 * sit on whole days and fit the width, it fills its panel on a direct load at 1440 and 390 px, hovering a day shows
 * its figures, y starts at 0; the Live feed applies the host filter (and shows no time range, which does not apply
 * to it); a session's page shows no filter it would ignore.
 */
declare const document: {
  body: { dataset: Record<string, string | undefined> };
  querySelector(selector: string): {
    dataset: Record<string, string | undefined>;
    getBoundingClientRect(): { x: number; y: number; width: number; height: number };
  } | null;
};

const DAY = 86_400_000;

describe("dashboard chart and filters in Chromium (issue 26 problems 1 and 5)", () => {
  let fixture: DashboardFixture;
  const now = Date.now();
  const today = new Date(now).toISOString().slice(0, 10);
  const dayStart = (at: number) => Math.floor(at / DAY) * DAY;

  beforeAll(async () => {
    fixture = await startDashboardFixture({
      name: "chart",
      fill: async (setup) => {
        const store = await setup.store();
        // three denials in the last hour and today (after 00:00 UTC also just after midnight), one of them
        // toolgate's own; one four days ago
        const from = Math.max(dayStart(now), now - 50 * 60_000);
        const recent = (part: number) => Math.floor(from + ((now - from) * part) / 4);
        const records: DenialRecord[] = [
          makeRecord({ seq: 1, sessionId: "chart-a", at: recent(1) }),
          makeRecord({ seq: 2, sessionId: "chart-a", at: recent(2) }),
          makeRecord({ seq: 3, sessionId: "chart-a", at: recent(3), source: "loop" }),
          makeRecord({ seq: 1, sessionId: "chart-old", at: now - 4 * DAY }),
        ].map((record) => ({ ...record, timestamp: new Date(record.at).toISOString() }));
        await store.denials.append(records);
      },
    });
  }, 180_000);

  afterAll(() => fixture?.close(), 60_000);

  const open = (query: string, width = 1440): Promise<Page> => fixture.open(query, width);
  const chart = (page: Page) =>
    page.evaluate(() => {
      const element = document.querySelector(".chart");
      const canvas = document.querySelector(".chart canvas");
      const plot = document.querySelector(".chart .u-over");
      const none = { x: 0, y: 0, width: 0, height: 0 };
      return {
        ...(element?.dataset as { xMin?: string; xMax?: string; yMin?: string; tickTimes?: string }),
        chartWidth: element?.getBoundingClientRect().width ?? 0,
        canvas: canvas?.getBoundingClientRect() ?? none,
        plot: plot?.getBoundingClientRect() ?? none,
      };
    });

  it("Last 24 hours with every bar on one day: the axis is the window, ticks on whole days, y from 0", {
    timeout: 180_000,
  }, async () => {
    const page = await open("&since=24h");
    await page.waitForSelector(".chart[data-x-max]");
    const drawn = await chart(page);
    // from the UTC day the window starts on to the end of today: not a year-long axis, not the data's extent
    expect(drawn.xMin).toBe(new Date(dayStart(now - DAY)).toISOString());
    expect(drawn.xMax).toBe(new Date(dayStart(now) + DAY).toISOString());
    expect(drawn.yMin).toBe("0");
    const ticks = (drawn.tickTimes ?? "").split(" ");
    expect(ticks).toContain(`${today}T00:00:00.000Z`);
    for (const tick of ticks) expect(tick).toMatch(/^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/);
    await page.close();

    // a window of today alone, every day with 3 denials: y still starts at 0 (a bar of 3 is not drawn empty)
    const todayOnly = await open(`&since=${encodeURIComponent(`${today}T00:00:00Z`)}`);
    await todayOnly.waitForSelector(".chart[data-x-max]");
    expect((await chart(todayOnly)).yMin).toBe("0");
    await todayOnly.close();
  });

  it("Last 7 days: the axis spans the chosen week although the data sit on two days", {
    timeout: 180_000,
  }, async () => {
    const page = await open("&since=7d");
    await page.waitForSelector(".chart[data-x-max]");
    const drawn = await chart(page);
    expect(drawn.xMin).toBe(new Date(dayStart(now - 7 * DAY)).toISOString());
    expect(drawn.xMax).toBe(new Date(dayStart(now) + DAY).toISOString());
    const ticks = (drawn.tickTimes ?? "").split(" ");
    // ticks fit the width (one label per 96 px at most) and are whole days
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/T00:00:00\.000Z$/);
    expect(ticks.length).toBeLessThanOrEqual(Math.floor(drawn.canvas.width / 96));
    await page.close();
  });

  it("fills its panel on a direct load at 1440 and 390 px, and hovering today's bar shows its figures", {
    timeout: 180_000,
  }, async () => {
    for (const width of [1440, 390]) {
      const page = await open("&since=7d", width);
      await page.waitForSelector(".chart[data-x-max]");
      await page.waitForFunction(() => {
        const element = document.querySelector(".chart");
        const canvas = document.querySelector(".chart canvas");
        return (
          element !== null &&
          canvas !== null &&
          Math.abs(element.getBoundingClientRect().width - canvas.getBoundingClientRect().width) < 80
        );
      });
      const drawn = await chart(page);
      // the plot (the canvas minus the y axis) spans the chart's width
      expect(drawn.canvas.width, `width ${width}`).toBeGreaterThan(drawn.chartWidth - 4 - 1);
      expect(drawn.canvas.width, `width ${width}`).toBeLessThanOrEqual(drawn.chartWidth + 1);
      // today's bar is the last day's: hover the middle of its slot, above the x axis
      const xMin = Date.parse(drawn.xMin as string);
      const xMax = Date.parse(drawn.xMax as string);
      const middle = drawn.plot.x + ((dayStart(now) + DAY / 2 - xMin) / (xMax - xMin)) * drawn.plot.width;
      await page.mouse.move(middle, drawn.plot.y + drawn.plot.height / 2);
      await page.waitForSelector(".chart-tip:not([hidden])");
      expect(await page.textContent(".chart-tip")).toBe(`${today}: 3 denials (loop 1, rule 2)`);
      await page.close();
    }
  });

  it("Live applies the host filter and offers no time range; a session page offers no filter", {
    timeout: 180_000,
  }, async () => {
    const page = await open("&view=live&host=codex");
    await page.waitForSelector("#live-status:text('Connected')");
    expect(await page.locator("#filter-since").count()).toBe(0);
    expect(await page.locator("#filter-host").count()).toBe(1);
    const store = await createSqliteStore({ filename: fixture.env.TOOLGATE_DB as string });
    const at = Date.now();
    await store.denials.append(
      [
        makeRecord({ seq: 1, sessionId: "live-claude", host: "claude-code", inputSummary: "rm -rf claude-side" }),
        makeRecord({ seq: 1, sessionId: "live-codex", host: "codex", inputSummary: "rm -rf codex-side" }),
      ].map((record) => ({ ...record, at, timestamp: new Date(at).toISOString() })),
    );
    await store.close();
    await page.waitForSelector("ol.live li:has-text('codex-side')", { timeout: 30_000 });
    // both rows were stored in one batch: the feed has read past both, so the other host's row is left out, not late
    expect(await page.locator("ol.live li").count()).toBe(1);
    await page.close();

    const session = await open("&view=session&session=chart-a&host=codex&tool=shell");
    expect(await session.locator("form.filters").count()).toBe(0);
    expect(await session.textContent("#filters-note")).toContain("whole session");
    await session.close();
  });
});
