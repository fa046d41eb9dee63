import { embeddedReport, token } from "../api.js";
import { emptyState, h } from "../dom.js";
import { exportLinks } from "../export-links.js";
import { dateTime, shortId } from "../format.js";
import { sourceColour } from "../source-colours.js";
import type { LiveDenial } from "../types.js";
import { linkTo } from "../url-state.js";

const KEEP = 200;
let source: EventSource | undefined;

/** closes the live feed when the page leaves the Live view */
export function stopLive(): void {
  source?.close();
  source = undefined;
}

/**
 * Live: every denial stored from now on, newest first, without a reload (server-sent events); the host, tool and
 * label filters narrow the feed on the server.
 */
export function liveView(filters: URLSearchParams = new URLSearchParams()): HTMLElement {
  const title = h("h2", { id: "live-title" }, "Live");
  if (embeddedReport()) {
    return h(
      "section",
      { "aria-labelledby": "live-title" },
      title,
      emptyState(
        "This is a saved report.",
        h("p", {}, "Live denials need the server: run ", h("code", {}, "toolgate dashboard"), "."),
      ),
    );
  }
  const status = h("p", { class: "status", role: "status", id: "live-status" }, "Connecting…");
  const list = h("ol", { class: "live", "aria-live": "polite", "aria-label": "New denials, newest first" });
  let received = 0;
  const shown: LiveDenial[] = [];
  stopLive();
  const query = new URLSearchParams({ token: token() });
  for (const key of ["host", "tool", "label"]) {
    const value = filters.get(key);
    if (value) query.set(key, value);
  }
  source = new EventSource(`/api/live?${query}`);
  source.addEventListener("ready", () => {
    status.textContent = "Connected. New denials appear here as agents are refused.";
  });
  source.addEventListener("denial", (event) => {
    const denial = JSON.parse((event as MessageEvent<string>).data) as LiveDenial;
    received += 1;
    status.textContent = `Connected · ${received} new ${received === 1 ? "denial" : "denials"} since you opened this view.`;
    list.prepend(item(denial));
    shown.unshift(denial);
    if (shown.length > KEEP) shown.length = KEEP;
    while (list.children.length > KEEP) list.lastElementChild?.remove();
  });
  source.addEventListener("error", () => {
    status.textContent = "Disconnected; reconnecting…";
  });
  // the denials this page received (newest first, up to 200): made in the page, the server keeps no live list
  return h(
    "section",
    { "aria-labelledby": "live-title" },
    title,
    status,
    list,
    exportLinks("live", { rows: () => shown }),
  );
}

function item(denial: LiveDenial): HTMLElement {
  return h(
    "li",
    { class: "denial", "data-id": denial.id },
    h("time", { datetime: new Date(denial.at).toISOString() }, dateTime(denial.at)),
    h("span", { class: "badge", style: `background:${sourceColour(denial.source)}` }, denial.source),
    h("strong", {}, denial.tool),
    " ",
    h("code", {}, denial.summary),
    " ",
    h("a", linkTo({ view: "session", session: denial.sessionId }), shortId(denial.sessionId)),
    h("div", { class: "reason" }, denial.rule ? `rule ${denial.rule} · ` : "", denial.reason),
  );
}
