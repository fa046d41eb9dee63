import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../store/fixtures.js";
import { type DashboardFixture, expectFits, startDashboardFixture } from "./dashboard-fixture.js";

/**
 * Issue 26 item 3 in Chromium, at 1440 and 390 px: the sessions list names each session's project (its last path
 * segment, the whole path in the title) and the first line of its first prompt (bidirectional controls shown as
 * code points, never applied), narrows to one project (the Project select and a click on a project), and the
 * session page names both. No view is wider than the window, whatever the length of the path or the prompt.
 */
declare const location: { search: string };

const LONG_PROJECT = `/home/dev/${"nested-folder/".repeat(12)}payments-service`;
const LONG_PROMPT = `Refactor the ${"very ".repeat(30)}long checkout flow`;

describe("sessions people can scan: project and first prompt in Chromium (issue 26 item 3)", () => {
  let fixture: DashboardFixture;
  const at = Date.now() - 3_600_000;

  beforeAll(async () => {
    fixture = await startDashboardFixture({
      name: "sessions-info",
      fill: async (setup) => {
        const store = await setup.store();
        await store.denials.append([
          makeRecord({ seq: 1, sessionId: "payments-1", at: at + 10 }),
          makeRecord({ seq: 1, sessionId: "payments-2", at: at + 20 }),
          makeRecord({ seq: 1, sessionId: "web-1", at: at + 30 }),
          makeRecord({ seq: 1, sessionId: "undescribed", at: at + 40 }),
        ]);
        const info = (sessionId: string, detail: Record<string, unknown>) =>
          ({ kind: "session.info", sessionId, turn: 1, at, detail }) as const;
        await store.denials.appendEvents([
          info("payments-1", { project: LONG_PROJECT, firstPrompt: LONG_PROMPT }),
          info("payments-2", { project: LONG_PROJECT, firstPrompt: "rename \u202etxt.exe please" }),
          info("web-1", { project: "/work/web", firstPrompt: "fix the header" }),
        ]);
      },
    });
  }, 180_000);

  afterAll(() => fixture?.close(), 60_000);

  const open = (query: string, width: number): Promise<Page> => fixture.open(query, width);
  const settled = async (page: Page, before: string | null) => {
    await page.waitForFunction((ticket) => {
      const body = (globalThis as unknown as { document: { body: { dataset: { ready?: string } } } }).document.body;
      return body.dataset.ready !== undefined && body.dataset.ready !== ticket;
    }, before);
  };
  const noOverflow = (page: Page, width: number, what: string) => expectFits(page, { width, what });
  const rowOf = (page: Page, sessionId: string) =>
    page.locator("table.sessions tbody tr", { has: page.locator(`a:text-is("${sessionId}")`) });
  const sessionCells = (page: Page) => page.locator("table.sessions tbody tr td:first-child a").allInnerTexts();

  for (const width of [1440, 390]) {
    it(`shows project and first prompt, narrows by project (${width} px)`, { timeout: 180_000 }, async () => {
      const page = await open("&view=sessions", width);
      await noOverflow(page, width, "sessions with long projects and prompts");
      const payments = rowOf(page, "payments-1");
      expect(await payments.locator("a.project").textContent()).toBe("payments-service");
      expect(await payments.locator("a.project").getAttribute("title")).toBe(LONG_PROJECT);
      expect(await payments.locator(".first-prompt").getAttribute("title")).toBe(LONG_PROMPT);
      // a long prompt is cut by its column, not by the page
      const box = await payments.locator(".first-prompt").boundingBox();
      expect(box?.width ?? 0).toBeLessThan(400);
      expect(await rowOf(page, "payments-2").locator(".first-prompt").textContent()).toBe(
        "rename ⟨U+202E⟩txt.exe please",
      );
      expect(await rowOf(page, "undescribed").locator("td").nth(1).textContent()).toBe("—");

      // the Project select: every project, named by its last segment
      expect(await page.locator("#sessions-project option").allInnerTexts()).toEqual([
        "Any project",
        "payments-service",
        "web",
      ]);
      let before = await page.getAttribute("body", "data-ready");
      await page.selectOption("#sessions-project", "/work/web");
      await settled(page, before);
      expect(await page.evaluate(() => location.search)).toContain(`project=${encodeURIComponent("/work/web")}`);
      expect(await sessionCells(page)).toEqual(["web-1"]);
      await noOverflow(page, width, "sessions of one project");

      // a click on a project narrows to it
      before = await page.getAttribute("body", "data-ready");
      await page.selectOption("#sessions-project", "");
      await settled(page, before);
      before = await page.getAttribute("body", "data-ready");
      await rowOf(page, "payments-2").locator("a.project").click();
      await settled(page, before);
      expect((await sessionCells(page)).sort()).toEqual(["payments-1", "payments-2"]);
      expect(await page.inputValue("#sessions-project")).toBe(LONG_PROJECT);
      await page.close();
    });

    it(`the session page names the project and the first prompt (${width} px)`, { timeout: 180_000 }, async () => {
      const page = await open("&view=session&session=payments-2", width);
      await noOverflow(page, width, "a session page");
      const info = page.locator("dl.session-info");
      expect(await info.locator("dd").first().getAttribute("title")).toBe(LONG_PROJECT);
      expect(await info.locator("dd strong").textContent()).toBe("payments-service");
      expect(await info.locator("dd.first-prompt-line").textContent()).toBe("rename ⟨U+202E⟩txt.exe please");
      const long = await open("&view=session&session=payments-1", width);
      await noOverflow(long, width, "a session page with a long project path");
      const undescribed = await open("&view=session&session=undescribed", width);
      expect(await undescribed.locator("dl.session-info").count()).toBe(0);
      for (const opened of [page, long, undescribed]) await opened.close();
    });
  }
});
