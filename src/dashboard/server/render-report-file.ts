import { answerKey } from "../answer-key.js";
import { answerApi, type DashboardData, SESSIONS_PAGE_SIZE } from "./dashboard-api.js";
import { renderPage } from "./render-page.js";
import { SESSION_SORTS } from "./sessions-query.js";

/** sessions whose timelines a saved report embeds (the most recent first), and pages of the sessions table */
export const REPORT_SESSION_LIMIT = 500;

/**
 * One self-contained HTML file with the dashboard's views over a store (`toolgate analyze --html`): the page's
 * script and stylesheet inline, and the answers to every request the views make without filters (overview, policy,
 * each sort of the sessions table, its pages, and the timelines of up to 500 sessions) embedded as JSON. It loads
 * nothing from the network.
 */
export async function renderReportFile(options: {
  data: Omit<DashboardData, "defaultSince">;
  assets: { script: string; css: string };
  title: string;
  generatedAt: Date;
  /** figures of the analysis beside the stored records (embedded under `/analysis`) */
  analysis?: Record<string, unknown>;
}): Promise<{ html: string; sessions: number; denials: number }> {
  const [first] = await options.data.reader.all("SELECT min(at) AS at FROM denials", []);
  const since =
    first?.at == null ? new Date(options.generatedAt).toISOString() : new Date(Number(first.at)).toISOString();
  const data: DashboardData = { ...options.data, defaultSince: since, now: () => options.generatedAt.getTime() };
  const answers: Record<string, unknown> = {};
  const ask = async (path: string, params: Record<string, string> = {}) => {
    const query = new URLSearchParams(params);
    const answer = await answerApi(data, { path, query });
    answers[answerKey(path, query)] = answer;
    return answer;
  };
  if (options.analysis) answers["/analysis"] = options.analysis;
  const overview = (await ask("/api/overview")) as { total: number };
  await ask("/api/policy");
  const sessions = (await ask("/api/sessions")) as { total: number };
  const pages = Math.min(Math.ceil(sessions.total / SESSIONS_PAGE_SIZE), REPORT_SESSION_LIMIT / SESSIONS_PAGE_SIZE);
  for (let page = 1; page < pages; page += 1) await ask("/api/sessions", { page: String(page) });
  for (const sort of Object.keys(SESSION_SORTS)) {
    for (const dir of ["asc", "desc"]) await ask("/api/sessions", { sort, dir });
  }
  const ids = await options.data.reader.all(
    `SELECT session_id, max(at) AS last_at FROM denials GROUP BY session_id ORDER BY last_at DESC, session_id LIMIT ${REPORT_SESSION_LIMIT}`,
    [],
  );
  for (const row of ids) await ask("/api/session", { id: String(row.session_id) });
  const html = renderPage({
    ...options.assets,
    mode: { kind: "file", answers, generatedAt: options.generatedAt.toISOString(), title: options.title },
  });
  return { html, sessions: sessions.total, denials: overview.total };
}
