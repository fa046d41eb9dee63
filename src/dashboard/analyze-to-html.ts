import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { AnalysisDocument, StopPoint } from "../analyze/analysis-types.js";
import { describeStop } from "../analyze/format-analysis.js";
import { loadAnalysisSetup } from "../analyze/load-analysis-setup.js";
import { type RunAnalyzeOptions, runAnalyze } from "../analyze/run-analyze.js";
import { ToolgateError } from "../core/errors.js";
import { plural } from "../core/plural.js";
import { openReadSide, type ReadSide } from "../root/read-side.js";
import { openBetterSqlite3 } from "../store/sqlite/driver-better-sqlite3.js";
import { createSqliteStore } from "../store/sqlite/sqlite-store.js";
import { loadDashboardAssets } from "./server/load-dashboard-assets.js";
import { sqliteReader } from "./server/open-sql-reader.js";
import { renderReportFile } from "./server/render-report-file.js";

const COPY_BATCH = 5_000;
/** the most "would have stopped at call N" lines the file lists */
const STOPS_SHOWN = 200;

/**
 * `toolgate analyze --html <file>`: the analysis runs as usual (its text or JSON on stdout), its denial records go
 * into a private SQLite database in a temporary directory, and the dashboard's views over that database are written
 * as one self-contained HTML file. With `--save` the same records are then appended to the real store.
 */
export async function analyzeToHtml(options: RunAnalyzeOptions & { file: string }): Promise<AnalysisDocument> {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-analyze-html-"));
  const filename = join(directory, "analysis.db");
  try {
    const env = { ...options.env, TOOLGATE_DB: filename, TOOLGATE_DATABASE_URL: undefined };
    const stderr = {
      isTTY: (options.stderr as { isTTY?: boolean }).isTTY === true,
      columns: (options.stderr as { columns?: number }).columns,
      // the private database is an implementation detail: its "offered N records" line is not shown
      write: (text: string) => (text.includes(filename) ? true : options.stderr.write(text)),
    };
    const document = await runAnalyze({
      ...options,
      save: true,
      env,
      stderr: stderr as unknown as RunAnalyzeOptions["stderr"],
    });
    const store = await createSqliteStore({ filename });
    const driver = openBetterSqlite3(filename, { busyTimeoutMs: 2_000 });
    const reader = sqliteReader(driver, { owned: true });
    try {
      // the real config, redaction and store, found as the hooks find them (not the private database's env)
      const readSide = await openReadSide({ cwd: options.cwd, env: options.env, homeDir: options.homeDir });
      const { redactor } = readSide;
      const report = await renderReportFile({
        data: {
          reader,
          denials: store.denials,
          redactText: (text) => redactor.redactText(text),
          // the real policy: no allow rule where a deny rule in the settings would still win
          canGrant: (await loadAnalysisSetup({ cwd: options.cwd, homeDir: options.homeDir, env: options.env }))
            .canGrant,
        },
        assets: loadDashboardAssets(),
        title: "toolgate analyze report",
        generatedAt: new Date(),
        analysis: {
          ...document.totals,
          skippedLines: document.skippedLines,
          // where toolgate would first have stopped or escalated each session, as the text output says it
          stops: document.sessions
            .filter((session) => session.stoppedAt !== null)
            .slice(0, STOPS_SHOWN)
            .map((session) => ({
              sessionId: session.sessionId,
              host: session.host,
              text: describeStop(session.stoppedAt as StopPoint),
            })),
        },
      });
      const target = resolve(options.cwd, options.file);
      try {
        writeFileSync(target, report.html);
      } catch (error) {
        throw new ToolgateError({
          code: "INPUT_INVALID",
          message: `Cannot write ${target} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}). Give --html a path in a writable directory.`,
          cause: error,
        });
      }
      options.stderr.write(
        `toolgate analyze: wrote ${options.file}: ${plural(report.denials, "denial", "denials")} in ${plural(report.sessions, "session", "sessions")}; it opens offline in any browser\n`,
      );
      if (options.save) {
        await copyRecords({ from: store, to: readSide, stderr: options.stderr });
      }
    } finally {
      await reader.close();
      await store.close();
    }
    return document;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** `--save` with `--html`: the analysed records, appended to the real store (idempotent, as `--save` alone) */
async function copyRecords(options: {
  from: Awaited<ReturnType<typeof createSqliteStore>>;
  to: ReadSide;
  stderr: { write(text: string): unknown };
}): Promise<void> {
  const target = await options.to.openStore();
  try {
    let afterId = 0;
    let offered = 0;
    for (;;) {
      const rows = await options.from.denials.query({ afterId, limit: COPY_BATCH });
      if (rows.length === 0) break;
      afterId = rows.at(-1)?.id ?? afterId;
      await target.denials.append(rows.map(({ id: _id, ...record }) => record));
      offered += rows.length;
    }
    options.stderr.write(
      `toolgate analyze: offered ${offered} denial records to ${target.location} (records already there are skipped)\n`,
    );
  } finally {
    await target.close();
  }
}
