import { h } from "./dom.js";
import type { SessionStatus } from "./types.js";

const numberFormat = new Intl.NumberFormat("en-US");

export function count(value: number): string {
  return numberFormat.format(value);
}

/** `2026-11-23 14:05` in UTC, the zone of the store's days */
export function dateTime(at: number): string {
  return new Date(at).toISOString().slice(0, 16).replace("T", " ");
}

export function time(at: number): string {
  return new Date(at).toISOString().slice(11, 19);
}

export function shortId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 12)}…` : id;
}

/** what a person reads for the details' keys; internal ids are left out */
const DETAIL_LABELS: Record<string, string | null> = {
  offerId: null,
  grantId: null,
  kind: "kind",
  level: "level",
  repeats: "repeats",
  calls: "calls",
  by: "found by",
  after: "after",
  reason: "reason",
  error: "message",
  count: "denials",
  pattern: "pattern",
  source: "source",
  interactive: "interactive",
  permissionDenialCount: "denials in the session",
  permissionDeniedTools: "denied tools",
  aborted: "aborted",
  grants: "grants",
  wastedCalls: "wasted calls",
  wastedTokens: "wasted tokens",
  toolCalls: "tool calls",
  origin: "recorded by",
  format: "format",
  cycleLength: "cycle length",
};

/** one line of an audit event's details, for the timeline: human labels, `{"Bash":5}` as `Bash 5` */
export function detailLine(detail: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (value === null || value === undefined) continue;
    const label = key in DETAIL_LABELS ? DETAIL_LABELS[key] : key.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    if (label === null) continue;
    const text =
      typeof value === "string"
        ? value
        : typeof value === "object" && !Array.isArray(value)
          ? Object.entries(value as Record<string, unknown>)
              .map(([name, inner]) => `${name} ${typeof inner === "string" ? inner : JSON.stringify(inner)}`)
              .join(", ")
          : JSON.stringify(value);
    parts.push(`${label}: ${text.length > 240 ? `${text.slice(0, 240)}…` : text}`);
  }
  return parts.join(" · ");
}

/** a canonical tool with the host names behind it: `shell (Bash, exec_command)`; just `shell` when it is the only name */
export function toolWithHostNames(tool: string, hostTools: readonly string[]): string {
  const others = hostTools.filter((name) => name !== tool);
  return others.length === 0 ? tool : `${tool} (${hostTools.join(", ")})`;
}

const STATUS_LABELS: Record<SessionStatus, { text: string; className: string; title: string }> = {
  clean: { text: "clean", className: "badge badge-clean", title: "no loop, no abort, nothing blocked" },
  looped: {
    text: "looped",
    className: "badge badge-loop",
    title: "a loop verdict of toolgate, or the same call denied 3 times or more",
  },
  aborted: { text: "aborted", className: "badge badge-abort", title: "toolgate aborted the run" },
  "blocked-required-call": {
    text: "blocked",
    className: "badge badge-deny",
    title: "toolgate escalated a call it kept refusing and nobody granted it",
  },
};

/** a session's status (core/figures.ts) as a badge */
export function statusBadge(status: SessionStatus): HTMLElement {
  const label = STATUS_LABELS[status] ?? STATUS_LABELS.clean;
  return h("span", { class: label.className, title: label.title, "data-status": status }, label.text);
}

/** A project path's last segment (`/work/my-app/` → `my-app`), for lists; the whole path goes in its title. */
export function projectName(path: string): string {
  const segments = path.split(/[\\/]+/).filter((segment) => segment !== "");
  return segments.at(-1) ?? path;
}
