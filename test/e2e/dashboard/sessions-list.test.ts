import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DenialRecord } from "../../../src/core/records.js";
import { makeRecord } from "../../store/fixtures.js";
import { type DashboardFixture, expectFits, startDashboardFixture } from "./dashboard-fixture.js";

/**
 * Issue 26 item 3 in Chromium, at 1440 and 390 px: the sessions list sorts by its figures (loops, wasted tokens),
 * narrows by status and minimums, and the overview's lists, which stop at 10, each lead to all of their rows
 * ("see all"), the sessions with loops, aborts or blocked calls to the sessions list narrowed to them. No view is
 * wider than the window.
 */
declare const document: {
  documentElement: { scrollWidth: number };
  querySelectorAll: (selector: string) => { length: number };
};
declare const location: { search: string };

describe("the sessions list and the overview's see-all links in Chromium (issue 26 item 3)", () => {
  let fixture: DashboardFixture;
  const at = Date.now() - 3_600_000;

  beforeAll(async () => {
    fixture = await startDashboardFixture({
      name: "sessions",
      fill: async (setup) => {
        const store = await setup.store();
        const records: DenialRecord[] = [];
        // 12 clean sessions of one denial each, 12 patterns: the overview's lists are cut at 10
        for (let index = 0; index < 12; index++)
          records.push(
            makeRecord({
              seq: 1,
              sessionId: `clean-${String(index).padStart(2, "0")}`,
              signature: `sig-clean-${index}`,
              pattern: `pattern-${index}`,
              at: at + index * 1000,
            }),
          );
        // the same call denied 4 times: a loop; another session loops with two tools and wastes recorded tokens
        for (let seq = 1; seq <= 4; seq++)
          records.push(makeRecord({ seq, sessionId: "looped-once", at: at + seq * 10 }));
        for (let seq = 1; seq <= 6; seq++)
          records.push(
            makeRecord({
              seq,
              sessionId: "looped-twice",
              tool: seq % 2 === 0 ? "Bash" : "Read",
              signature: seq % 2 === 0 ? "sig-a" : "sig-b",
              pattern: seq % 2 === 0 ? "a" : "b",
              at: at + seq * 20,
            }),
          );
        records.push(makeRecord({ seq: 1, sessionId: "aborted-run", at: at + 5 }));
        await store.denials.append(records);
        await store.denials.appendEvents([
          { kind: "run.aborted", sessionId: "aborted-run", turn: 1, at: at + 6, tool: "Bash", detail: {} },
          {
            kind: "session.summary",
            sessionId: "looped-twice",
            turn: 1,
            at: at + 200,
            detail: { wastedCalls: 4, wastedTokens: 5200, toolCalls: 9 },
          },
        ]);
      },
    });
  }, 180_000);

  afterAll(() => fixture?.close(), 60_000);

  const open = (query: string, width: number): Promise<Page> => fixture.open(query, width);
  /** waits for the render that follows a click or a change (the page counts its renders in data-ready) */
  const settled = async (page: Page, before: string | null) => {
    await page.waitForFunction((ticket) => {
      const body = (globalThis as unknown as { document: { body: { dataset: { ready?: string } } } }).document.body;
      return body.dataset.ready !== undefined && body.dataset.ready !== ticket;
    }, before);
  };
  const click = async (page: Page, selector: string) => {
    const before = await page.getAttribute("body", "data-ready");
    await page.click(selector);
    await settled(page, before);
  };
  const sessionCells = (page: Page) => page.locator("table.sessions tbody tr td:first-child a").allInnerTexts();
  const noOverflow = (page: Page, width: number, what: string) => expectFits(page, { width, what });

  for (const width of [1440, 390]) {
    it(`sorts sessions by loops and wasted tokens, narrows them by status and minimums (${width} px)`, {
      timeout: 180_000,
    }, async () => {
      const page = await open("&view=sessions", width);
      await noOverflow(page, width, "sessions");
      expect(await page.locator("table.sessions tbody tr").count()).toBe(15);
      await click(page, "#sort-loops");
      expect(await page.evaluate(() => location.search)).toContain("sort=loops");
      expect((await sessionCells(page)).slice(0, 2)).toEqual(["looped-twice", "looped-once"]);
      await click(page, "#sort-tokens");
      expect((await sessionCells(page))[0]).toBe("looped-twice");
      expect(await page.locator("table.sessions tbody tr").first().textContent()).toContain("5,200");

      const before = await page.getAttribute("body", "data-ready");
      await page.selectOption("#sessions-status", "aborted");
      await settled(page, before);
      expect(await sessionCells(page)).toEqual(["aborted-run"]);
      expect(await page.locator(".badge, [data-status]").first().getAttribute("data-status")).toBe("aborted");
      await noOverflow(page, width, "sessions narrowed by status");

      await click(page, "#sessions-clear");
      const typed = await page.getAttribute("body", "data-ready");
      await page.fill("#sessions-min-loops", "2");
      await page.press("#sessions-min-loops", "Enter");
      await settled(page, typed);
      expect(await page.evaluate(() => location.search)).toContain("min_loops=2");
      expect(await sessionCells(page)).toEqual(["looped-twice"]);

      // a bad value typed into the URL is explained in the page, once
      const bad = await open("&view=sessions&min_wasted=-3", width);
      const errors = await bad.locator(".error").allInnerTexts();
      expect(errors).toHaveLength(1);
      expect(errors[0]).toContain("min_wasted takes a whole number from 0");
      await bad.close();
      await page.close();
    });

    it(`each overview list that stops at 10 leads to all of its rows (${width} px)`, { timeout: 180_000 }, async () => {
      const page = await open("", width);
      await noOverflow(page, width, "overview");
      const patterns = () =>
        page
          .locator("table", { has: page.locator("caption", { hasText: "Top patterns" }) })
          .locator("tbody tr")
          .count();
      expect(await patterns()).toBe(10);
      await click(page, "#see-all-patterns");
      expect(await page.evaluate(() => location.search)).toContain("top=500");
      expect(await patterns()).toBe(15); // 12 + rm + a + b
      await noOverflow(page, width, "overview with every row");
      await click(page, "#see-all-patterns"); // now "Show the top 10"
      expect(await patterns()).toBe(10);

      await click(page, "#see-all-incidents");
      expect(await page.evaluate(() => location.search)).toContain("view=sessions");
      expect((await sessionCells(page)).sort()).toEqual(["aborted-run", "looped-once", "looped-twice"]);
      expect(await page.inputValue("#sessions-status")).toBe("looped,aborted,blocked-required-call");
      await noOverflow(page, width, "sessions with loops, aborts or blocked calls");
      await page.close();
    });
  }
});
