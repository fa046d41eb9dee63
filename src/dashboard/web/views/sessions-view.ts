import { getJson } from "../api.js";
import { emptyState, h, table } from "../dom.js";
import { exportLinks } from "../export-links.js";
import { count, dateTime, shortId, statusBadge } from "../format.js";
import type { SessionsPage } from "../types.js";
import { linkTo, navigate } from "../url-state.js";

/** Sessions: every session with denials under the filters, sorted and paged by the server. */
export async function sessionsView(params: URLSearchParams, filters: URLSearchParams): Promise<HTMLElement> {
  const sort = params.get("sort") ?? "last";
  const descending = params.get("dir") !== "asc";
  const page = Number(params.get("page") ?? "0") || 0;
  const query = new URLSearchParams(filters);
  if (params.has("sort")) query.set("sort", sort);
  if (params.has("dir")) query.set("dir", descending ? "desc" : "asc");
  if (page > 0) query.set("page", String(page));
  const answer = await getJson<SessionsPage>("/api/sessions", query);
  const title = h("h2", { id: "sessions-title" }, "Sessions");
  if (answer.total === 0) {
    return h(
      "section",
      { "aria-labelledby": "sessions-title" },
      title,
      emptyState(
        "No session has denials in this window.",
        h("p", {}, "Widen the time range, clear the filters, or run an agent with toolgate installed."),
      ),
    );
  }
  const pages = Math.ceil(answer.total / answer.pageSize);
  // the server answers the last page for a page past it (`page=99`): show the page it answered
  const shown = answer.page;
  const onSort = (key: string) => navigate({ sort: key, dir: key === sort && descending ? "asc" : "desc", page: null });
  return h(
    "section",
    { "aria-labelledby": "sessions-title" },
    title,
    table({
      caption: `${count(answer.total)} sessions with denials, page ${shown + 1} of ${pages}`,
      sorted: { key: sort, descending, onSort },
      columns: [
        {
          label: "Session",
          sort: "session",
          cell: (row) => [
            h(
              "a",
              linkTo({ view: "session", session: row.sessionId, sort: null, dir: null, page: null }),
              shortId(row.sessionId),
            ),
            row.parentSessionId ? h("span", { class: "muted" }, " subagent session") : null,
          ],
        },
        { label: "Host", cell: (row) => row.host ?? "—" },
        { label: "First denial (UTC)", sort: "first", cell: (row) => dateTime(row.firstAt) },
        { label: "Last denial (UTC)", sort: "last", cell: (row) => dateTime(row.lastAt) },
        { label: "Denials", sort: "denials", numeric: true, cell: (row) => count(row.denials) },
        { label: "Tools", numeric: true, cell: (row) => count(row.tools) },
        { label: "Subagents", numeric: true, cell: (row) => count(row.subagents) },
        { label: "Status", cell: (row) => statusBadge(row.status) },
        { label: "Loops", numeric: true, cell: (row) => count(row.loops) },
        { label: "Aborts", numeric: true, cell: (row) => count(row.aborts) },
        { label: "Wasted calls", numeric: true, cell: (row) => count(row.wastedCalls) },
      ],
      rows: answer.rows,
    }),
    // every page, in this sort: the server's export, or in a saved report the pages it holds
    exportLinks("sessions", {
      query: exportQuery(query),
      rows: async () => ({ rows: await savedPages(query) }),
    }),
    h(
      "nav",
      { class: "pager", "aria-label": "Pages" },
      shown > 0 ? h("a", linkTo({ page: shown - 1 === 0 ? null : String(shown - 1) }), "← Newer page") : null,
      shown + 1 < pages ? h("a", linkTo({ page: String(shown + 1) }), "Next page →") : null,
    ),
  );
}

function exportQuery(query: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(query);
  copy.delete("page");
  return copy;
}

/** a saved report's pages of this sort, in order, as far as it holds them */
async function savedPages(query: URLSearchParams): Promise<unknown[]> {
  const rows: unknown[] = [];
  for (let page = 0; ; page += 1) {
    const ask = exportQuery(query);
    if (page > 0) ask.set("page", String(page));
    const answer = await getJson<SessionsPage>("/api/sessions", ask).catch(() => undefined);
    if (answer === undefined || answer.page !== page) return rows;
    rows.push(...answer.rows);
    if ((page + 1) * answer.pageSize >= answer.total) return rows;
  }
}
