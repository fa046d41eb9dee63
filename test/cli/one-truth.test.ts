import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { denialPayload } from "../../src/audit/record-payload.js";
import { decideRunOutcome } from "../../src/cli/run/run-report.js";
import type { Figures } from "../../src/core/figures.js";
import { answerApi } from "../../src/dashboard/server/dashboard-api.js";
import { loadDashboardAssets } from "../../src/dashboard/server/load-dashboard-assets.js";
import { openSqlReader } from "../../src/dashboard/server/open-sql-reader.js";
import { renderReportFile } from "../../src/dashboard/server/render-report-file.js";
import { createSqliteStore } from "../../src/store/sqlite/sqlite-store.js";
import { ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";
import { hookSessions } from "./one-truth-sessions.js";

/**
 * Issue 26 item 1: one store, every view, the same figures. The store holds what `toolgate analyze --save` read
 * from the recorded transcripts of five hosts plus what the hooks recorded for sessions toolgate ran in (its loop
 * verdicts at two levels, its own refusals, an abort, an escalation nobody granted, the same call denied again and
 * again with no verdict). `report --json`, the dashboard's API, the saved HTML file, `toolgate run`'s summary and
 * the hook payloads must show the same loops, wasted and saved calls and statuses; `analyze --json` and
 * `analyze --html` the same as the store for the sessions it saved.
 */
beforeAll(ensureBuilt);

const fixture = makeFixture({});
const database = join(fixture.root, "toolgate.db");
afterAll(() => rmSync(fixture.root, { recursive: true, force: true }));
const cli = (args: string[]) =>
  runCli(args, { cwd: fixture.project, home: fixture.home, env: { TOOLGATE_DB: database } });
const transcripts = join(repoRoot, "test/fixtures/transcripts");
const SINCE = "2000-01-01";

let analysis: {
  totals: Record<string, unknown>;
  sessions: { sessionId: string; denialCount: number; loops: unknown[] }[];
};
/** the public Codex 0.40 capture: two different patches a person rejected, no retry of either */
const TWO_REJECTED_PATCHES = "01997e76-d124-7592-9cac-2ec05abbca08";
let analysisFigures: Pick<Figures, "denials" | "loops" | "sessionsWithLoops" | "wastedCalls" | "wastedTokens">;
const hooks = hookSessions();

beforeAll(async () => {
  const analyzed = cli(["analyze", transcripts, "--save", "--json"]);
  expect(analyzed.status, analyzed.stderr).toBe(0);
  analysis = JSON.parse(analyzed.stdout);
  const totals = analysis.totals as Record<string, number | null>;
  analysisFigures = {
    denials: totals.denials as number,
    loops: totals.loops as number,
    sessionsWithLoops: totals.sessionsWithLoops as number,
    wastedCalls: totals.wastedCalls as number,
    wastedTokens: totals.wastedTokens as number | null,
  };
  // the report of the transcripts alone, before the hook sessions join them
  const store = await createSqliteStore({ filename: database });
  try {
    transcriptReport = (await store.denials.report({ since: Date.parse(SINCE) })).figures;
    await store.denials.append(hooks.records);
    await store.denials.appendEvents(hooks.events);
  } finally {
    await store.close();
  }
}, 120_000);
let transcriptReport: Figures;

const pick = (figures: Figures) => ({
  denials: figures.denials,
  loops: figures.loops,
  sessionsWithLoops: figures.sessionsWithLoops,
  wastedCalls: figures.wastedCalls,
  wastedTokens: figures.wastedTokens,
});

describe("one truth in every view (issue 26 item 1)", () => {
  it("analyze --json and the store it saved agree: denials, loops, sessions with loops, wasted calls and tokens", () => {
    expect(analysisFigures.denials).toBeGreaterThan(0);
    expect(analysisFigures.loops).toBeGreaterThan(0);
    expect(pick(transcriptReport)).toEqual(analysisFigures);
  });

  it("report --json, the dashboard, the saved HTML file, run's summary and the hook payloads show the same figures", async () => {
    const report = cli(["report", "--since", SINCE, "--json"]);
    expect(report.status, report.stderr).toBe(0);
    const fromReport = JSON.parse(report.stdout) as { figures: Figures; total: number; incidents: unknown[] };
    const { figures } = fromReport;
    // the hook sessions: one host loop, one verdict loop (two levels = one loop), an abort, a blocked call, a clean one
    expect(figures.status.aborted).toBeGreaterThanOrEqual(1);
    expect(figures.status["blocked-required-call"]).toBe(1);
    expect(figures.savedCalls).toBe(3);
    expect(figures.loops).toBe(transcriptReport.loops + 3);
    expect(figures.denials).toBe(transcriptReport.denials + hooks.records.length);
    expect(figures.wastedTokens).toBe((transcriptReport.wastedTokens ?? 0) + 700);

    const reader = await openSqlReader({ engine: "sqlite", filename: database });
    const store = await createSqliteStore({ filename: database });
    try {
      const data = {
        reader,
        denials: store.denials,
        defaultSince: SINCE,
        redactText: (text: string) => text,
      };
      // the dashboard: the store's report, and the same figures in its own SQL when a host filter narrows the rows
      const overview = (await answerApi(data, { path: "/api/overview", query: new URLSearchParams() })) as {
        figures: Figures;
        callsSaved: number;
        runsAborted: number;
        sessionsWithLoops: number;
        incidents: unknown[];
      };
      expect(overview.figures).toEqual(figures);
      expect(overview.incidents).toEqual(fromReport.incidents);
      expect([overview.callsSaved, overview.runsAborted, overview.sessionsWithLoops]).toEqual([
        figures.savedCalls,
        figures.status.aborted,
        figures.sessionsWithLoops,
      ]);
      for (const host of ["claude-code", "codex", "gemini", "qwen", "opencode"]) {
        const narrowed = (await answerApi(data, {
          path: "/api/overview",
          query: new URLSearchParams({ host }),
        })) as { figures: Figures };
        const sessions = (await answerApi(data, {
          path: "/api/sessions",
          query: new URLSearchParams({ host }),
        })) as { rows: { loops: number; wastedCalls: number; status: string }[] };
        // the sessions table's rows add up to the overview's figures under the same filter
        expect(
          {
            loops: sessions.rows.reduce((sum, row) => sum + row.loops, 0),
            wastedCalls: sessions.rows.reduce((sum, row) => sum + row.wastedCalls, 0),
            looped: sessions.rows.filter((row) => row.status === "looped").length,
          },
          host,
        ).toEqual({
          loops: narrowed.figures.loops,
          wastedCalls: narrowed.figures.wastedCalls,
          looped: narrowed.figures.status.looped,
        });
      }
      const sessions = (await answerApi(data, { path: "/api/sessions", query: new URLSearchParams() })) as {
        rows: {
          sessionId: string;
          loops: number;
          wastedCalls: number;
          wastedTokens: number | null;
          savedCalls: number;
          status: string;
        }[];
      };
      expect(sessions.rows.reduce((sum, row) => sum + row.loops, 0)).toBe(figures.loops);
      expect(sessions.rows.reduce((sum, row) => sum + row.wastedCalls, 0)).toBe(figures.wastedCalls);
      expect(sessions.rows.reduce((sum, row) => sum + row.savedCalls, 0)).toBe(figures.savedCalls);
      // two different rejected apply_patch calls are no retry-after-denial loop, in analyze and in every view
      expect(analysis.sessions.find((session) => session.sessionId === TWO_REJECTED_PATCHES)?.loops).toEqual([]);
      // the tokens a hook named for its wasted calls, on the session's row
      expect(sessions.rows.find((row) => row.sessionId === "hook-host-loop")).toMatchObject({
        wastedCalls: 7,
        wastedTokens: 700,
      });
      expect(sessions.rows.find((row) => row.sessionId === TWO_REJECTED_PATCHES)).toMatchObject({
        loops: 0,
        status: "clean",
      });

      // the saved HTML file over the same store: its embedded overview answer
      const file = await renderReportFile({
        data: { reader, denials: store.denials, redactText: (text) => text },
        assets: loadDashboardAssets(),
        title: "one truth",
        generatedAt: new Date(),
      });
      expect(embeddedOverview(file.html).figures).toEqual(figures);

      // toolgate run's summary and the hook payloads, per hook session, from the same rows
      const rows = await store.denials.query({});
      const events = await store.denials.queryEvents({});
      for (const row of sessions.rows.filter((session) => session.sessionId.startsWith("hook-"))) {
        const outcome = decideRunOutcome({
          agentExitCode: 0,
          stream: undefined,
          records: rows.filter((record) => record.sessionId === row.sessionId),
          events: events.filter((event) => event.sessionId === row.sessionId),
          failOn: "never",
          describe: (_tool, input) => ({ summary: "", allowRule: "", signature: JSON.stringify(input) }),
        });
        expect(
          {
            loops: outcome.figures.loops,
            wastedCalls: outcome.figures.wastedCalls,
            wastedTokens: outcome.figures.wastedTokens,
            savedCalls: outcome.figures.savedCalls,
            status: outcome.figures.status[row.status as keyof Figures["status"]],
          },
          row.sessionId,
        ).toEqual({
          loops: row.loops,
          wastedCalls: row.wastedCalls,
          wastedTokens: row.wastedTokens,
          savedCalls: row.savedCalls,
          status: 1,
        });
        const saved = rows
          .filter((record) => record.sessionId === row.sessionId)
          .filter((record) => denialPayload(record).saved_call).length;
        expect(saved, row.sessionId).toBe(row.savedCalls);
      }
    } finally {
      await reader.close();
      await store.close();
    }
  });

  it("analyze --html writes a file whose figures are analyze --json's", () => {
    const html = join(fixture.root, "analysis.html");
    const run = cli(["analyze", transcripts, "--html", html, "--json"]);
    expect(run.status, run.stderr).toBe(0);
    const overview = embeddedOverview(readFileSync(html, "utf8"));
    expect(pick(overview.figures)).toEqual(analysisFigures);
    expect(overview.sessionsWithLoops).toBe(analysisFigures.sessionsWithLoops);
  });
});

function embeddedOverview(html: string): { figures: Figures; sessionsWithLoops: number } {
  const match = /<script type="application\/json" id="toolgate-data">([\s\S]*?)<\/script>/.exec(html);
  const data = JSON.parse(match?.[1] ?? "{}") as { answers: Record<string, unknown> };
  const key = Object.keys(data.answers).find((name) => name.startsWith("/api/overview"));
  return data.answers[key ?? ""] as { figures: Figures; sessionsWithLoops: number };
}
