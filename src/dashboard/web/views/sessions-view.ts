import { embeddedReport, getJson } from "../api.js";
import { emptyState, h, table, visibleText } from "../dom.js";
import { exportLinks } from "../export-links.js";
import { count, dateTime, projectName, shortId, statusBadge } from "../format.js";
import type { SessionRow, SessionsPage } from "../types.js";
import { linkTo, navigate } from "../url-state.js";

/** the sessions list's own narrowing in the URL (sent to /api/sessions as they are; the server validates them) */
const LIST_KEYS = ["status", "project", "min_denials", "min_loops", "min_aborts", "min_wasted", "min_tokens"] as const;

const STATUS_CHOICES = [
  ["", "Any status"],
  ["looped,aborted,blocked-required-call", "Not clean"],
  ["clean", "Clean"],
  ["looped", "Looped"],
  ["aborted", "Aborted"],
  ["blocked-required-call", "Blocked required call"],
] as const;

const MINIMUMS = [
  ["min_denials", "Denials ≥"],
  ["min_loops", "Loops ≥"],
  ["min_wasted", "Wasted calls ≥"],
  ["min_tokens", "Wasted tokens ≥"],
] as const;

/**
 * Sessions: every session with denials under the filters, sorted (by any column with a button) and paged by the
 * server, narrowed by status and by minimums of its figures.
 */
export async function sessionsView(params: URLSearchParams, filters: URLSearchParams): Promise<HTMLElement> {
  const sort = params.get("sort") ?? "last";
  const descending = params.get("dir") !== "asc";
  const page = Number(params.get("page") ?? "0") || 0;
  const query = new URLSearchParams(filters);
  if (params.has("sort")) query.set("sort", sort);
  if (params.has("dir")) query.set("dir", descending ? "desc" : "asc");
  if (page > 0) query.set("page", String(page));
  for (const key of LIST_KEYS) {
    const value = params.get(key);
    if (value) query.set(key, value);
  }
  const answer = await getJson<SessionsPage>("/api/sessions", query);
  const title = h("h2", { id: "sessions-title" }, "Sessions");
  const narrowed = LIST_KEYS.some((key) => params.get(key));
  // a saved report holds the list in each sort, not narrowed: it offers no narrowing
  const controls = embeddedReport() ? null : listControls({ params, narrowed, projects: answer.projects ?? [] });
  if (answer.total === 0) {
    return h(
      "section",
      { "aria-labelledby": "sessions-title" },
      title,
      controls,
      emptyState(
        narrowed ? "No session matches these figures and this project." : "No session has denials in this window.",
        h(
          "p",
          {},
          narrowed
            ? "Lower the minimums, or choose another status or project."
            : "Widen the time range, clear the filters, or run an agent with toolgate installed.",
        ),
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
    controls,
    table({
      caption: `${count(answer.total)} sessions with denials, page ${shown + 1} of ${pages}`,
      sorted: { key: sort, descending, onSort },
      className: "sessions",
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
        { label: "Project", cell: projectCell },
        { label: "First prompt", cell: promptCell },
        { label: "Host", sort: "host", cell: (row) => row.host ?? "—" },
        { label: "Status", sort: "status", cell: (row) => statusBadge(row.status) },
        { label: "Last denial (UTC)", sort: "last", cell: (row) => dateTime(row.lastAt) },
        { label: "First denial (UTC)", sort: "first", cell: (row) => dateTime(row.firstAt) },
        { label: "Denials", sort: "denials", numeric: true, cell: (row) => count(row.denials) },
        { label: "Loops", sort: "loops", numeric: true, cell: (row) => count(row.loops) },
        { label: "Aborts", sort: "aborts", numeric: true, cell: (row) => count(row.aborts) },
        { label: "Wasted calls", sort: "wasted", numeric: true, cell: (row) => count(row.wastedCalls) },
        {
          label: "Wasted tokens",
          sort: "tokens",
          numeric: true,
          cell: (row) => (row.wastedTokens === null ? "—" : count(row.wastedTokens)),
        },
        { label: "Tools", numeric: true, cell: (row) => count(row.tools) },
        { label: "Subagents", numeric: true, cell: (row) => count(row.subagents) },
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
      shown > 0 ? h("a", linkTo({ page: shown - 1 === 0 ? null : String(shown - 1) }), "← Previous page") : null,
      shown + 1 < pages ? h("a", linkTo({ page: String(shown + 1) }), "Next page →") : null,
    ),
  );
}

/** the project's last segment, the whole path in its title; a link that narrows the list to that project */
function projectCell(row: SessionRow): HTMLElement | string {
  if (row.project === null) return "—";
  return h(
    "a",
    {
      ...linkTo({ project: row.project, page: null }),
      class: "project",
      title: visibleText(row.project),
      "aria-label": `Only sessions of project ${visibleText(row.project)}`,
    },
    projectName(row.project),
  );
}

/** the first line of the first prompt, cut to the column by CSS; the whole stored line in its title */
function promptCell(row: SessionRow): HTMLElement | string {
  if (row.firstPrompt === null) return "—";
  return h("span", { class: "first-prompt", title: visibleText(row.firstPrompt) }, row.firstPrompt);
}

/** status, project and minimums: plain form controls; each change is one history entry and goes back to the first page */
function listControls(options: {
  params: URLSearchParams;
  narrowed: boolean;
  projects: readonly string[];
}): HTMLElement {
  const { params, narrowed } = options;
  const status = params.get("status") ?? "";
  const statusKnown = STATUS_CHOICES.some(([value]) => value === status);
  const project = params.get("project") ?? "";
  const projects =
    project === "" || options.projects.includes(project) ? options.projects : [project, ...options.projects];
  return h(
    "form",
    {
      class: "filters list-filters",
      "aria-label": "Narrow the sessions",
      onsubmit: (event: Event) => event.preventDefault(),
    },
    h(
      "label",
      {},
      "Status ",
      h(
        "select",
        {
          name: "status",
          id: "sessions-status",
          onchange: (event: Event) =>
            navigate({ status: (event.target as HTMLSelectElement).value || null, page: null }),
        },
        ...STATUS_CHOICES.map(([value, text]) => h("option", { value, selected: value === status }, text)),
        statusKnown ? null : h("option", { value: status, selected: true }, status),
      ),
    ),
    projects.length === 0
      ? null
      : h(
          "label",
          {},
          "Project ",
          h(
            "select",
            {
              name: "project",
              id: "sessions-project",
              onchange: (event: Event) =>
                navigate({ project: (event.target as HTMLSelectElement).value || null, page: null }),
            },
            h("option", { value: "", selected: project === "" }, "Any project"),
            ...projects.map((path) =>
              h(
                "option",
                { value: path, selected: path === project, title: visibleText(path) },
                optionName(path, projects),
              ),
            ),
          ),
        ),
    ...MINIMUMS.map(([name, label]) =>
      h(
        "label",
        {},
        `${label} `,
        h("input", {
          type: "number",
          min: 0,
          step: 1,
          inputmode: "numeric",
          name,
          id: `sessions-${name.replace("_", "-")}`,
          value: params.get(name) ?? "",
          placeholder: "0",
          // on change (Enter or leaving the field), not on every keystroke
          onchange: (event: Event) =>
            navigate({ [name]: (event.target as HTMLInputElement).value || null, page: null }),
        }),
      ),
    ),
    narrowed
      ? h(
          "button",
          {
            type: "button",
            id: "sessions-clear",
            onclick: () => navigate(Object.fromEntries([...LIST_KEYS.map((key) => [key, null]), ["page", null]])),
          },
          "Show every session",
        )
      : null,
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

/** a project's last segment, or its whole path when another project in the list ends the same way */
function optionName(path: string, projects: readonly string[]): string {
  const name = projectName(path);
  return projects.some((other) => other !== path && projectName(other) === name) ? path : name;
}
