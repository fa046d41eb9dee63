import "uplot/dist/uPlot.min.css";
import "./dashboard.css";
import { ApiError, embeddedReport, NotInReport } from "./api.js";
import { h } from "./dom.js";
import { filterBar } from "./filter-bar.js";
import { FILTER_KEYS, linkTo, readState, setNavigateHandler, type View } from "./url-state.js";
import { liveView, stopLive } from "./views/live-view.js";
import { overviewView } from "./views/overview-view.js";
import { policyView } from "./views/policy-view.js";
import { sessionView } from "./views/session-view.js";
import { sessionsView } from "./views/sessions-view.js";

/** the server's default window (`toolgate dashboard --since`); a saved report has no window to choose */
const DEFAULT_SINCE = document.querySelector<HTMLMetaElement>('meta[name="toolgate-default-since"]')?.content || "30d";
const NAV: [View, string][] = [
  ["overview", "Overview"],
  ["sessions", "Sessions"],
  ["policy", "Policy tuning"],
  ["live", "Live"],
];

const root = document.getElementById("app") as HTMLElement;
let renderCount = 0;

/** Renders the view the URL names. A newer navigation wins over a slower older one. */
async function render(): Promise<void> {
  const ticket = ++renderCount;
  // the element with focus is rebuilt; the same control gets it back (keyboard users keep their place)
  const focusedId = document.activeElement?.id;
  const { view, params } = readState();
  const report = embeddedReport();
  const filters = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value) filters.set(key, value);
  }
  if (view !== "live") stopLive();
  const main = h(
    "main",
    { id: "content", tabindex: "-1", "aria-busy": "true" },
    h("p", { class: "status" }, "Loading…"),
  );
  const header = h(
    "header",
    {},
    h("a", { class: "skip", href: "#content" }, "Skip to content"),
    h("h1", {}, report ? report.title : "toolgate"),
    h(
      "nav",
      { "aria-label": "Views" },
      // a saved report is a snapshot: it has no live view, so it offers none
      ...NAV.filter(([name]) => report === undefined || name !== "live").map(([name, label]) =>
        h(
          "a",
          {
            ...linkTo({ view: name, session: null, sort: null, dir: null, page: null }),
            id: `nav-${name}`,
            "aria-current": view === name || (view === "session" && name === "sessions") ? "page" : null,
          },
          label,
        ),
      ),
    ),
  );
  // the filter bar and the view load together: neither waits for the other's answer
  const contentPromise = viewContent(view, params, filters);
  const bar = report
    ? h(
        "p",
        { class: "note" },
        `Saved report, generated ${report.generatedAt.slice(0, 16).replace("T", " ")} UTC by toolgate analyze. Filters and live updates need `,
        h("code", {}, "toolgate dashboard"),
        ".",
      )
    : view === "session"
      ? // one session's timeline is the whole session: no filter applies, so none is shown
        h("p", { class: "note", id: "filters-note" }, "A session's timeline shows the whole session, unfiltered.")
      : // a bad filter (`since=abc`) fails the bar and the view alike: the view says why, once; the bar offers the way back
        await filterBar(params, { defaultSince: DEFAULT_SINCE, since: view !== "live" }).catch(() =>
          h(
            "p",
            { class: "note", id: "filters-reset" },
            h(
              "a",
              linkTo({ since: null, until: null, tool: null, host: null, label: null, page: null }),
              "Reset the filters",
            ),
          ),
        );
  if (ticket !== renderCount) return;
  root.replaceChildren(header, bar, main);
  if (focusedId) document.getElementById(focusedId)?.focus();
  const content = await contentPromise;
  if (ticket !== renderCount) return;
  main.replaceChildren(content);
  // what the first-paint benchmark reads: the view's data is on screen (bench/dashboard-first-paint.bench.mjs)
  performance.mark(`toolgate:${view}-rendered`);
  if (focusedId && (document.activeElement === null || document.activeElement === document.body)) {
    document.getElementById(focusedId)?.focus();
  }
  main.setAttribute("aria-busy", "false");
  document.title = `${NAV.find(([name]) => name === view)?.[1] ?? "Session"} · ${report ? report.title : "toolgate dashboard"}`;
  document.body.dataset.ready = String(ticket);
}

async function viewContent(view: View, params: URLSearchParams, filters: URLSearchParams): Promise<HTMLElement> {
  try {
    if (view === "sessions") return await sessionsView(params, filters);
    if (view === "session") return await sessionView(params);
    if (view === "policy") return await policyView(filters);
    if (view === "live") {
      if (embeddedReport()) throw new NotInReport();
      return liveView(filters);
    }
    return await overviewView(filters, params);
  } catch (error) {
    return h("p", { class: "error", role: "alert" }, describe(error));
  }
}

function describe(error: unknown): string {
  if (error instanceof NotInReport)
    return "This saved report does not include that view. Run toolgate dashboard for filters, sorting and paging.";
  if (error instanceof ApiError) return `The dashboard could not load this view: ${error.message}`;
  return `Something went wrong: ${error instanceof Error ? error.message : String(error)}`;
}

setNavigateHandler(() => void render());
void render();
