import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Figures } from "../../../src/core/figures.js";
import { hookSessions } from "../../cli/one-truth-sessions.js";
import { runToolgate } from "../claude/toolgate-cli.js";
import { type DashboardFixture, expectFits, startDashboardFixture } from "./dashboard-fixture.js";

/**
 * Issue 26's "done when", in Chromium: one store (what `toolgate analyze --save` read from the recorded transcripts
 * of five hosts, plus what the hooks recorded for sessions toolgate ran in), every view walked at 1440 and 390 px.
 * No view is wider than the window; the overview's figures are `report --json`'s; the sessions list's rows add up
 * to them and each analysed session's row and page show the figures `analyze --json` gave for it.
 */
declare const document: {
  documentElement: { scrollWidth: number };
  querySelector(selector: string): { getAttribute(name: string): string | null } | null;
};

const REPOSITORY = join(import.meta.dirname, "..", "..", "..");
const SINCE = "2000-01-01";
const WIDTHS = [1440, 390];

interface AnalyzedSession {
  sessionId: string;
  denialCount: number;
  loops: unknown[];
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: string;
}
/** what a person reads in one row of the sessions table, by column */
interface ShownRow {
  sessionId: string;
  status: string;
  denials: number;
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
}

describe("one store, every view, the same figures, at 1440 and 390 px (issue 26)", () => {
  let fixture: DashboardFixture;
  let analyzed: AnalyzedSession[];
  let report: { total: number; sessions: number; figures: Figures };

  beforeAll(async () => {
    fixture = await startDashboardFixture({
      name: "one-truth",
      args: ["--since", SINCE],
      fill: async ({ home, env, store }) => {
        const transcripts = join(REPOSITORY, "test", "fixtures", "transcripts");
        const analysis = runToolgate({ args: ["analyze", transcripts, "--save", "--json"], cwd: home, env });
        expect(analysis.exitCode, analysis.stderr).toBe(0);
        analyzed = (JSON.parse(analysis.stdout) as { sessions: AnalyzedSession[] }).sessions;
        const hooks = hookSessions();
        const opened = await store();
        await opened.denials.append(hooks.records);
        await opened.denials.appendEvents(hooks.events);
      },
    });
    const reported = runToolgate({ args: ["report", "--json", "--since", SINCE], cwd: fixture.home, env: fixture.env });
    expect(reported.exitCode, reported.stderr).toBe(0);
    report = JSON.parse(reported.stdout);
  }, 180_000);

  afterAll(() => fixture?.close(), 60_000);

  const open = async (query: string, width: number): Promise<Page & { errors: string[] }> => {
    const page = (await fixture.open(`&since=${SINCE}${query}`, width)) as Page & { errors: string[] };
    page.errors = [];
    page.on("pageerror", (error) => page.errors.push(error.message));
    await page.waitForFunction(() => document.querySelector("main")?.getAttribute("aria-busy") === "false");
    return page;
  };
  const fits = (page: Page, width: number, what: string) => expectFits(page, { width, what });
  const number = (text: string | null) =>
    text === null || text.trim() === "—" ? null : Number(text.replaceAll(",", ""));
  /** every row of the sessions table, page by page, read from its cells by their column headers */
  const sessionRows = async (width: number): Promise<ShownRow[]> => {
    const rows: ShownRow[] = [];
    for (let index = 0; index < 20; index += 1) {
      const page = await open(`&view=sessions&sort=session&dir=asc${index === 0 ? "" : `&page=${index}`}`, width);
      await fits(page, width, `sessions page ${index + 1}`);
      const table = page.locator("table:has(caption)").first();
      const headers = (await table.locator("thead th").allTextContents()).map((text) =>
        text.replace(/[▲▼↑↓]/g, "").trim(),
      );
      const column = (name: string) => {
        const found = headers.findIndex((header) => header.startsWith(name));
        expect(found, `column ${name} in ${headers.join(" | ")}`).toBeGreaterThanOrEqual(0);
        return found;
      };
      const at = {
        session: column("Session"),
        status: column("Status"),
        denials: column("Denials"),
        loops: column("Loops"),
        aborts: column("Aborts"),
        wastedCalls: column("Wasted calls"),
        wastedTokens: column("Wasted tokens"),
      };
      for (const row of await table.locator("tbody tr").all()) {
        const cells = row.locator("td, th");
        const link = await cells.nth(at.session).locator("a").getAttribute("href");
        rows.push({
          sessionId: new URL(link ?? "", fixture.url).searchParams.get("session") ?? "",
          status: (await cells.nth(at.status).locator("[data-status]").getAttribute("data-status")) ?? "",
          denials: number(await cells.nth(at.denials).textContent()) ?? -1,
          loops: number(await cells.nth(at.loops).textContent()) ?? -1,
          aborts: number(await cells.nth(at.aborts).textContent()) ?? -1,
          wastedCalls: number(await cells.nth(at.wastedCalls).textContent()) ?? -1,
          wastedTokens: number(await cells.nth(at.wastedTokens).textContent()),
        });
      }
      const next = await page.locator("nav.pager a", { hasText: "Next page" }).count();
      expect(page.errors).toEqual([]);
      await page.close();
      if (next === 0) break;
    }
    return rows;
  };

  for (const width of WIDTHS) {
    it(`the overview shows report --json's figures and fits ${width} px`, { timeout: 180_000 }, async () => {
      const page = await open("", width);
      await fits(page, width, "overview");
      const kpi = async (id: string) => number(await page.textContent(`#${id}`));
      const { figures } = report;
      expect({
        total: await kpi("kpi-total"),
        sessions: await kpi("kpi-sessions"),
        saved: await kpi("kpi-saved"),
        aborted: await kpi("kpi-aborted"),
        withLoops: await kpi("kpi-loops"),
        wastedCalls: await kpi("kpi-wasted-calls"),
        wastedTokens: figures.wastedTokens === null ? null : await kpi("kpi-wasted-tokens"),
      }).toEqual({
        total: report.total,
        sessions: report.sessions,
        saved: figures.savedCalls,
        aborted: figures.status.aborted,
        withLoops: figures.sessionsWithLoops,
        wastedCalls: figures.wastedCalls,
        wastedTokens: figures.wastedTokens,
      });
      // the store holds loops, waste, tokens, an abort and a saved call: the comparison above compares something
      expect(figures.loops).toBeGreaterThan(0);
      expect(figures.wastedCalls).toBeGreaterThan(0);
      expect(figures.wastedTokens).toBeGreaterThan(0);
      expect(figures.status.aborted).toBeGreaterThan(0);
      expect(page.errors).toEqual([]);
      await page.close();
    });

    it(`the sessions list adds up to report --json and matches analyze --json per session at ${width} px`, {
      timeout: 300_000,
    }, async () => {
      const rows = await sessionRows(width);
      const { figures } = report;
      const sum = (pick: (row: ShownRow) => number) => rows.reduce((total, row) => total + pick(row), 0);
      expect(rows).toHaveLength(report.sessions);
      expect({
        denials: sum((row) => row.denials),
        loops: sum((row) => row.loops),
        wastedCalls: sum((row) => row.wastedCalls),
        wastedTokens: sum((row) => row.wastedTokens ?? 0),
        looped: rows.filter((row) => row.status === "looped").length,
        aborted: rows.filter((row) => row.status === "aborted").length,
        blocked: rows.filter((row) => row.status === "blocked-required-call").length,
      }).toEqual({
        denials: figures.denials,
        loops: figures.loops,
        wastedCalls: figures.wastedCalls,
        wastedTokens: figures.wastedTokens ?? 0,
        looped: figures.status.looped,
        aborted: figures.status.aborted,
        blocked: figures.status["blocked-required-call"],
      });
      // each session analyze saved shows the figures analyze --json gave it
      const byId = new Map(rows.map((row) => [row.sessionId, row]));
      const withDenials = analyzed.filter((session) => session.denialCount > 0);
      expect(withDenials.length).toBeGreaterThan(3);
      for (const session of withDenials) {
        const shown = byId.get(session.sessionId);
        expect(shown, session.sessionId).toBeDefined();
        expect(
          {
            status: shown?.status,
            denials: shown?.denials,
            loops: shown?.loops,
            wastedCalls: shown?.wastedCalls,
            wastedTokens: shown?.wastedTokens,
          },
          session.sessionId,
        ).toEqual({
          status: session.status,
          denials: session.denialCount,
          loops: session.loops.length,
          wastedCalls: session.wastedCalls,
          wastedTokens: session.wastedTokens,
        });
      }
    });

    it(`a session page shows its row's status and figures, and fits ${width} px`, { timeout: 300_000 }, async () => {
      const rows = await sessionRows(width);
      // one session of each status, and the analysed session with the most wasted calls
      const chosen = new Map<string, ShownRow>();
      for (const row of rows) if (!chosen.has(row.status)) chosen.set(row.status, row);
      const wasteful = [...rows].sort((a, b) => b.wastedCalls - a.wastedCalls)[0];
      if (wasteful) chosen.set("most waste", wasteful);
      expect([...chosen.keys()]).toEqual(
        expect.arrayContaining(["clean", "looped", "aborted", "blocked-required-call"]),
      );
      for (const row of chosen.values()) {
        const page = await open(`&view=session&session=${encodeURIComponent(row.sessionId)}`, width);
        await fits(page, width, `session ${row.sessionId}`);
        const shown = async (id: string) => number(await page.textContent(`#${id}`));
        expect(
          {
            sessionId: row.sessionId,
            status: await page.locator("#session-status [data-status]").getAttribute("data-status"),
            denials: await shown("session-denials"),
            loops: await shown("session-loops"),
            aborts: await shown("session-aborts"),
            wastedCalls: await shown("session-wasted-calls"),
            wastedTokens: await shown("session-wasted-tokens"),
          },
          row.sessionId,
        ).toEqual(row);
        expect(await page.locator("ol.timeline li").count(), row.sessionId).toBeGreaterThan(0);
        expect(page.errors).toEqual([]);
        await page.close();
      }
    });

    it(`policy tuning and live fit ${width} px and show this store's calls`, { timeout: 180_000 }, async () => {
      const policy = await open("&view=policy", width);
      await fits(policy, width, "policy");
      expect(await policy.locator("table.policy tbody tr").count()).toBeGreaterThan(0);
      expect(policy.errors).toEqual([]);
      await policy.close();
      const live = await open("&view=live", width);
      await fits(live, width, "live");
      expect(live.errors).toEqual([]);
      await live.close();
    });
  }
});
