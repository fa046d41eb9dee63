import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeRecord } from "../../store/fixtures.js";
import { type DashboardFixture, expectFits, startDashboardFixture } from "./dashboard-fixture.js";

/**
 * Issue 26 problem 11's edges in Chromium: no view overflows a 390 px phone, `page=99` answers the last page and
 * says so, `since=abc` is explained once in the page's words (not a CLI flag) with a way back, a far-future `since`
 * returns no denial, and bidirectional control characters in a stored call are shown as code points, never applied.
 */
declare const document: {
  documentElement: { scrollWidth: number };
  body: { textContent: string | null };
};

describe("dashboard edges in Chromium (issue 26 problem 11)", () => {
  let fixture: DashboardFixture;
  const at = Date.now() - 3_600_000;
  const reversed = "cat notes\u202Etxt.exe\u2066x\u2069";

  beforeAll(async () => {
    fixture = await startDashboardFixture({
      name: "edges",
      fill: async (setup) => {
        const store = await setup.store();
        await store.denials.append([
          ...Array.from({ length: 6 }, (_, index) =>
            makeRecord({
              seq: index + 1,
              sessionId: "a-rather-long-session-identifier-that-does-not-fit-a-phone-0001",
              inputSummary:
                "npm run a-very-long-script-name-that-would-overflow-a-narrow-table --workspace packages/web",
              at: at + index * 1000,
            }),
          ),
          makeRecord({ seq: 1, sessionId: "bidi", inputSummary: reversed, input: { command: reversed }, at }),
        ]);
        await store.denials.appendEvents([
          {
            kind: "grant.offered",
            sessionId: "bidi",
            turn: 1,
            at: at + 1,
            tool: "Bash",
            detail: { offerId: "offer-1", pattern: "cat" },
          },
          {
            kind: "session.summary",
            sessionId: "bidi",
            turn: 1,
            at: at + 2,
            detail: { permissionDenialCount: 1, permissionDeniedTools: { Bash: 5 } },
          },
        ]);
      },
    });
  }, 180_000);

  afterAll(() => fixture?.close(), 60_000);

  const open = (query: string, width = 390): Promise<Page> => fixture.open(query, width);

  it("no view is wider than a 390 px phone", { timeout: 180_000 }, async () => {
    for (const view of ["overview", "sessions", "policy", "live", "session&session=bidi"]) {
      const page = await open(`&view=${view}`);
      await page.waitForFunction(() => document.documentElement.scrollWidth > 0);
      await expectFits(page, { width: 390, what: view });
      await page.close();
    }
  });

  it("page=99 shows the last page and says which; since=abc is explained once, with a way back", {
    timeout: 180_000,
  }, async () => {
    const paged = await open("&view=sessions&page=99", 1200);
    expect(await paged.textContent("caption")).toContain("page 1 of 1");
    await paged.close();
    const bad = await open("&since=abc", 1200);
    const errors = await bad.locator(".error").allInnerTexts();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('"abc"');
    expect(errors[0]).not.toContain("--since");
    expect(await bad.locator("#filters-reset a").count()).toBe(1);
    await bad.close();
  });

  it("a far-future since returns no denial", async () => {
    const bare = fixture.url.replace(/\?token=.*/, "");
    const token = new URL(fixture.url).searchParams.get("token") ?? "";
    const answer = await fetch(`${bare}api/overview?token=${token}&since=${encodeURIComponent("+010000-01-01")}`);
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { total: number }).total).toBe(0);
  });

  it("shows bidirectional control characters as code points, never applied", { timeout: 180_000 }, async () => {
    const page = await open("&view=session&session=bidi", 1200);
    const text = await page.evaluate(() => document.body.textContent ?? "");
    expect(text).toContain("cat notes⟨U+202E⟩txt.exe⟨U+2066⟩x⟨U+2069⟩");
    const applied = [...text].filter((char) => {
      const code = char.codePointAt(0) ?? 0;
      return (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
    });
    expect(applied).toEqual([]);
    // problem 10: the timeline's times carry their date, and its details read as words, without internal ids
    const day = new Date(at).toISOString().slice(0, 10);
    expect(await page.locator(".timeline time").first().textContent()).toMatch(
      new RegExp(`^${day} \\d{2}:\\d{2}:\\d{2}$`),
    );
    expect(text).toContain("denied tools: Bash 5");
    expect(text).not.toContain("permissionDeniedTools");
    expect(text).not.toContain("offer-1");
    await page.close();
  });
});
