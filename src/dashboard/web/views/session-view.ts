import { getJson } from "../api.js";
import { h, visibleText } from "../dom.js";
import { count, dateTime, detailLine, projectName, shortId, statusBadge, time } from "../format.js";
import { sourceColour } from "../source-colours.js";
import type { SessionTimeline, TimelineEntry } from "../types.js";
import { linkTo } from "../url-state.js";

const EVENT_TITLES: Record<string, string> = {
  "escalation.reached": "Escalation",
  "grant.offered": "Grant offered",
  "grant.recorded": "Grant given",
  "grant.declined": "Grant declined",
  "grant.revoked": "Grant revoked",
  "nudge.sent": "Nudge sent to the model",
  "run.aborted": "Run aborted",
  "loop.detected": "Loop detected",
  "session.summary": "Session ended",
  "denial.recorded": "Denial recorded",
};

/** One session's timeline: each denial with its source and rule, each escalation, nudge, grant, loop and abort. */
export async function sessionView(params: URLSearchParams): Promise<HTMLElement> {
  const id = params.get("session") ?? "";
  const timeline = await getJson<SessionTimeline>("/api/session", new URLSearchParams({ id }));
  const denials = timeline.entries.filter((entry) => entry.type === "denial").length;
  const labels = Object.entries(timeline.labels ?? {}).map(([key, value]) => `${key}: ${value}`);
  return h(
    "section",
    { "aria-labelledby": "session-title" },
    h("p", {}, h("a", linkTo({ view: "sessions", session: null }), "← All sessions")),
    h("h2", { id: "session-title" }, "Session ", h("code", {}, timeline.sessionId)),
    h(
      "p",
      { class: "window" },
      [timeline.host ?? "unknown host", plural(denials, "denial"), ...labels].join(" · "),
      timeline.truncated ? " · showing the first 1,000 denials and events" : "",
    ),
    figuresList(timeline),
    describe(timeline),
    timeline.subagents.length + timeline.childSessions.length === 0
      ? null
      : h(
          "div",
          { class: "panel" },
          h("h3", {}, "Subagents"),
          h(
            "ul",
            {},
            ...timeline.subagents.map((agent) =>
              h(
                "li",
                {},
                h("code", {}, agent.agentId),
                ` · ${plural(agent.denials, "denial")} from ${dateTime(agent.firstAt)}`,
              ),
            ),
            ...timeline.childSessions.map((child) =>
              h(
                "li",
                {},
                h("a", linkTo({ session: child.sessionId }), shortId(child.sessionId)),
                ` · subagent session, ${plural(child.denials, "denial")}`,
              ),
            ),
          ),
        ),
    timeline.entries.length === 0
      ? h("p", { class: "note" }, "Nothing recorded for this session.")
      : h("ol", { class: "timeline", "aria-label": "What happened, in order" }, ...timeline.entries.map(entryItem)),
    h(
      "p",
      { class: "note" },
      "The store keeps denials and toolgate's own events; allowed and successful calls are not recorded, so they are not on this timeline.",
    ),
  );
}

/**
 * The session's status badge and figures, as its row in the sessions list shows them (core/figures.ts, over all its
 * rows): a page reached from a link says at once whether the run looped, was aborted or was blocked.
 */
function figuresList(timeline: SessionTimeline): HTMLElement | null {
  const { figures } = timeline;
  if (figures === undefined) return null;
  const item = (label: string, value: HTMLElement | string, id: string) =>
    h("div", { class: "kpi" }, h("dt", {}, label), h("dd", { id }, value));
  return h(
    "dl",
    { class: "kpis session-figures", "aria-label": "This session's figures" },
    item("Status", statusBadge(figures.status), "session-status"),
    item("Denials", count(figures.denials), "session-denials"),
    item("Loops", count(figures.loops), "session-loops"),
    item("Aborts", count(figures.aborts), "session-aborts"),
    item("Wasted calls", count(figures.wastedCalls), "session-wasted-calls"),
    item("Wasted tokens", figures.wastedTokens === null ? "—" : count(figures.wastedTokens), "session-wasted-tokens"),
    item("Calls saved", count(figures.savedCalls), "session-saved"),
  );
}

/** the session's project (its last segment, the whole path beside it) and its first prompt line, when known */
function describe(timeline: SessionTimeline): HTMLElement | null {
  if (timeline.project === null && timeline.firstPrompt === null) return null;
  return h(
    "dl",
    { class: "session-info" },
    timeline.project === null
      ? null
      : [
          h("dt", {}, "Project"),
          h(
            "dd",
            { title: visibleText(timeline.project) },
            h("strong", {}, projectName(timeline.project)),
            " ",
            h("code", { class: "muted" }, timeline.project),
          ),
        ],
    timeline.firstPrompt === null
      ? null
      : [h("dt", {}, "First prompt"), h("dd", { class: "first-prompt-line" }, timeline.firstPrompt)],
  );
}

function plural(value: number, noun: string): string {
  return `${count(value)} ${noun}${value === 1 ? "" : "s"}`;
}

function entryItem(entry: TimelineEntry): HTMLElement {
  // with its date: a session can span midnight, and a timeline read later has no other clue
  const when = h(
    "time",
    { datetime: new Date(entry.at).toISOString() },
    `${dateTime(entry.at)}:${time(entry.at).slice(6)}`,
  );
  const agent = entry.agentId ? h("span", { class: "muted" }, ` subagent ${entry.agentId}`) : null;
  if (entry.type === "denial") {
    return h(
      "li",
      { class: "denial" },
      when,
      h("span", { class: "badge", style: `background:${sourceColour(entry.source)}` }, `denied · ${entry.source}`),
      h("strong", {}, entry.tool),
      " ",
      h("code", {}, entry.summary),
      agent,
      h("div", { class: "reason" }, entry.rule ? `rule ${entry.rule} · ` : "", entry.reason),
    );
  }
  const kind = entry.kind === "run.aborted" ? "abort" : entry.kind === "loop.detected" ? "loop" : "event";
  return h(
    "li",
    { class: `event ${kind}` },
    when,
    h("span", { class: `badge badge-${kind}` }, EVENT_TITLES[entry.kind] ?? entry.kind),
    entry.tool ? h("strong", {}, entry.tool) : null,
    agent,
    h("div", { class: "reason" }, detailLine(entry.detail)),
  );
}
