import { embeddedReport, getJson } from "../api.js";
import { stackedBars } from "../chart.js";
import { emptyState, h, table } from "../dom.js";
import { exportLinks } from "../export-links.js";
import { count, shortId, statusBadge, toolWithHostNames } from "../format.js";
import { sourceColour } from "../source-colours.js";
import type { Overview } from "../types.js";
import { linkTo } from "../url-state.js";

/** Overview: what was refused in the window, by day and source, which tools and patterns, which sessions looped. */
export async function overviewView(filters: URLSearchParams, params?: URLSearchParams): Promise<HTMLElement> {
  // `top=500`: every row of the lists ("see all"); the server refuses other values with a sentence
  const top = params?.get("top");
  const overview = await getJson<Overview>(
    "/api/overview",
    top ? new URLSearchParams([...filters, ["top", top]]) : filters,
  );
  const limit = top ? Number(top) : TOP;
  if (overview.total === 0) {
    return h(
      "section",
      { "aria-labelledby": "overview-title" },
      h("h2", { id: "overview-title" }, "Overview"),
      emptyState(
        filtersNarrow(filters) ? "No denials match these filters." : "No denials yet in this window.",
        h(
          "p",
          {},
          "Install toolgate into your agent with ",
          h("code", {}, "toolgate install <host>"),
          " (",
          h("code", {}, "toolgate install --help"),
          " lists the hosts), run a session, and its denials appear here. To load the sessions your agents already ran: ",
          h("code", {}, "toolgate analyze --save"),
          ".",
        ),
        filtersNarrow(filters)
          ? h("p", {}, h("a", linkTo({ tool: null, host: null, label: null }), "Clear the filters"))
          : null,
      ),
    );
  }
  const kpis = h(
    "dl",
    { class: "kpis" },
    kpi("Denials", overview.total, "kpi-total"),
    kpi("Sessions", overview.sessions, "kpi-sessions"),
    kpi(
      "Calls saved",
      overview.callsSaved,
      "kpi-saved",
      "calls toolgate refused itself after a loop verdict or an abort",
    ),
    kpi("Runs aborted", overview.runsAborted, "kpi-aborted"),
    kpi(
      "Sessions with loops",
      overview.sessionsWithLoops,
      "kpi-loops",
      "a loop verdict of toolgate, or the same call denied 3 times or more in one session",
    ),
    kpi(
      "Wasted calls",
      overview.figures.wastedCalls,
      "kpi-wasted-calls",
      "calls of a pattern made after it was denied while it stayed unavailable",
    ),
    overview.figures.wastedTokens === null
      ? null
      : kpi("Wasted tokens", overview.figures.wastedTokens, "kpi-wasted-tokens"),
  );
  const { days, sources, counts } = overview.bySource;
  const chartLabel = `Denials per day, stacked by source, from ${days[0]} to ${days.at(-1)}. The table below has every figure.`;
  const seriesTable = table({
    caption: "Denials per day by source (the chart's figures)",
    className: "series",
    columns: [
      { label: "Day (UTC)", cell: (index: number) => days[index] },
      ...sources.map((source, sourceIndex) => ({
        label: source,
        numeric: true,
        cell: (index: number) => count(counts[sourceIndex]?.[index] ?? 0),
      })),
      {
        label: "Total",
        numeric: true,
        cell: (index: number) => count(counts.reduce((sum, row) => sum + (row[index] ?? 0), 0)),
      },
    ],
    rows: days.map((_, index) => index).reverse(),
  });
  const legend = h(
    "ul",
    { class: "legend", "aria-hidden": "true" },
    ...sources.map((source) =>
      h("li", {}, h("span", { class: "swatch", style: `background:${sourceColour(source)}` }), source),
    ),
  );
  return h(
    "section",
    { "aria-labelledby": "overview-title" },
    h("h2", { id: "overview-title" }, "Overview"),
    h(
      "p",
      { class: "window" },
      `${overview.window.since.slice(0, 16).replace("T", " ")} UTC to ${overview.window.until?.slice(0, 16).replace("T", " ") ?? "now"}`,
      overview.fromReport ? " · same figures as toolgate report" : " · narrowed by host or label",
    ),
    kpis,
    analysisPanel(),
    h(
      "figure",
      { class: "panel" },
      h("figcaption", {}, "Denials over time, by source"),
      legend,
      stackedBars({ days, sources, counts, label: chartLabel, since: overview.window.since, end: overview.window.end }),
      h("details", {}, h("summary", {}, "Show the figures as a table"), seriesTable),
      exportLinks("per-day", { query: filters, rows: () => overview }),
    ),
    h(
      "div",
      { class: "grid" },
      h(
        "div",
        {},
        table({
          caption: "Top tools",
          columns: [
            {
              label: "Tool",
              // one row per canonical tool across hosts; a saved report has no filtered answers to link to
              cell: (row) => {
                const label = toolWithHostNames(row.tool, row.hostTools);
                return embeddedReport() ? label : h("a", linkTo({ tool: row.tool }), label);
              },
            },
            { label: "Denials", numeric: true, cell: (row) => count(row.count) },
          ],
          rows: overview.topTools,
        }),
        seeAll(overview.topTools.length, limit, "every tool", "see-all-tools"),
        exportLinks("top-tools", { query: filters, rows: () => overview }),
      ),
      h(
        "div",
        {},
        table({
          caption: "Top patterns",
          columns: [
            { label: "Tool", cell: (row) => row.tool },
            { label: "Pattern", cell: (row) => h("code", {}, row.pattern) },
            { label: "Variants", numeric: true, cell: (row) => count(row.variantCount) },
            { label: "Denials", numeric: true, cell: (row) => count(row.count) },
          ],
          rows: overview.topPatterns,
        }),
        seeAll(overview.topPatterns.length, limit, "every pattern", "see-all-patterns"),
        exportLinks("top-patterns", { query: filters, rows: () => overview }),
      ),
    ),
    overview.incidents.length === 0
      ? h("p", { class: "note" }, "No session in this window looped, was aborted or was blocked.")
      : [
          table({
            caption: "Sessions with loops, aborts or blocked calls",
            columns: [
              {
                label: "Session",
                cell: (row) => h("a", linkTo({ view: "session", session: row.sessionId }), shortId(row.sessionId)),
              },
              { label: "Status", cell: (row) => statusBadge(row.status) },
              { label: "Loops", numeric: true, cell: (row) => count(row.loops) },
              { label: "Aborts", numeric: true, cell: (row) => count(row.aborts) },
              { label: "Denials", numeric: true, cell: (row) => count(row.denials) },
            ],
            rows: overview.incidents,
          }),
          exportLinks("incidents", { query: filters, rows: () => overview }),
        ],
    overview.incidents.length === 0 || embeddedReport()
      ? null
      : h(
          "p",
          { class: "see-all" },
          h(
            "a",
            {
              ...linkTo({ view: "sessions", status: "looped,aborted,blocked-required-call", sort: "loops", top: null }),
              id: "see-all-incidents",
            },
            "See every session with loops, aborts or blocked calls",
          ),
        ),
  );
}

/** rows per list unless the page asks for all of them */
const TOP = 10;
const TOP_ALL = "500";

/** "See all" under a list that may have been cut (it is full); a saved report has no other answers to show */
function seeAll(shown: number, limit: number, what: string, id: string): HTMLElement | null {
  if (embeddedReport()) return null;
  if (shown >= limit && limit < Number(TOP_ALL))
    return h("p", { class: "see-all" }, h("a", { ...linkTo({ top: TOP_ALL }), id }, `See ${what}`));
  if (limit > TOP) return h("p", { class: "see-all" }, h("a", { ...linkTo({ top: null }), id }, "Show the top 10"));
  return null;
}

function kpi(label: string, value: number, id: string, title?: string): HTMLElement {
  return h("div", { class: "kpi", title: title ?? null }, h("dt", {}, label), h("dd", { id }, count(value)));
}

function filtersNarrow(filters: URLSearchParams): boolean {
  return ["tool", "host", "label"].some((key) => filters.has(key));
}

/** a saved analysis report: what the replay found beside the recorded denials */
function analysisPanel(): HTMLElement | null {
  const analysis = embeddedReport()?.answers["/analysis"] as
    | {
        toolCalls: number;
        wastedCalls: number;
        wastedTokens: number | null;
        savedCalls: number;
        loops: number;
        files: number;
        stops?: { sessionId: string; host: string; text: string }[];
      }
    | undefined;
  if (!analysis) return null;
  const stops = analysis.stops ?? [];
  return h(
    "div",
    { class: "panel" },
    h("h3", {}, "What toolgate would have done"),
    h(
      "dl",
      { class: "kpis" },
      kpi("Transcript files", analysis.files, "kpi-files"),
      kpi("Tool calls", analysis.toolCalls, "kpi-calls"),
      kpi("Calls wasted after a denial", analysis.wastedCalls, "kpi-wasted"),
      analysis.wastedTokens === null || analysis.wastedTokens === undefined
        ? null
        : kpi("Tokens of the wasted calls", analysis.wastedTokens, "kpi-analysis-wasted-tokens"),
      kpi("Calls toolgate would have saved", analysis.savedCalls, "kpi-would-save"),
      kpi("Loops found", analysis.loops, "kpi-analysis-loops"),
    ),
    stops.length === 0
      ? null
      : h(
          "details",
          { class: "stops" },
          h("summary", {}, `Where toolgate would have stopped or escalated: ${count(stops.length)} sessions`),
          h(
            "ul",
            { class: "stops", "aria-label": "Where toolgate would have stopped each session" },
            ...stops.map((stop) =>
              h(
                "li",
                {},
                h("a", linkTo({ view: "session", session: stop.sessionId }), shortId(stop.sessionId)),
                ` (${stop.host}): ${stop.text}`,
              ),
            ),
          ),
        ),
    h(
      "p",
      { class: "note" },
      "From replaying the transcripts through toolgate; the figures are explained in docs/analyze.md.",
    ),
  );
}
