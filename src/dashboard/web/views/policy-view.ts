import { getJson } from "../api.js";
import { emptyState, h, table } from "../dom.js";
import { exportLinks } from "../export-links.js";
import { count, dateTime, shortId, toolWithHostNames } from "../format.js";
import type { AttackKind, Policy, PolicyRow } from "../types.js";
import { linkTo } from "../url-state.js";

/**
 * Policy tuning: the most-denied calls with the narrowest allow rule (copy button), marked when a deny rule still
 * wins, and the attack-like denials (a deny rule refused something destructive or exfiltrating) kept apart.
 */
export async function policyView(filters: URLSearchParams): Promise<HTMLElement> {
  const policy = await getJson<Policy>("/api/policy", filters);
  const title = h("h2", { id: "policy-title" }, "Policy tuning");
  if (policy.total === 0) {
    return h(
      "section",
      { "aria-labelledby": "policy-title" },
      title,
      emptyState("Nothing denied in this window, so nothing to tune.", h("p", {}, "Widen the time range above.")),
    );
  }
  return h(
    "section",
    { "aria-labelledby": "policy-title" },
    title,
    h(
      "p",
      { class: "note" },
      "One row per call across hosts (the same command denied as one host's Bash and another's exec_command is one row). Trend: denials in this window against the window of the same length before it.",
    ),
    h("h3", {}, "Looks like an attack"),
    h(
      "p",
      { class: "note" },
      "A deny rule refused a risky call, worst first: sending data off the machine, reading secrets, rewriting shared history, destroying data, then routine deletes. Keep these rules; look at what led the agent there (a prompt injection in a file, a web page, an issue).",
    ),
    policy.attacks.length === 0
      ? h("p", { class: "ok" }, "None in this window.")
      : [
          rulesTable("Deny-rule hits on risky calls, worst first", policy.attacks, true),
          exportLinks("policy-attacks", { query: filters, rows: () => policy }),
        ],
    h("h3", {}, "Policy may be too tight"),
    h(
      "p",
      { class: "note" },
      "The most-denied calls, with the narrowest rule in each host's own rule language that would allow each. Add it where the rule says if the agent should be able to do this.",
    ),
    policy.tooTight.length === 0
      ? h("p", {}, "None in this window.")
      : [
          rulesTable("Most-denied calls", policy.tooTight, false),
          exportLinks("policy-tuning", { query: filters, rows: () => policy }),
        ],
  );
}

const RISK_LABELS: Record<AttackKind, string> = {
  exfiltration: "sends data off the machine",
  secrets: "reads secrets",
  "force-push": "rewrites shared history",
  destructive: "destroys data",
  "routine-delete": "routine delete",
};

function rulesTable(caption: string, rows: PolicyRow[], attacks: boolean): HTMLElement {
  return table({
    caption,
    className: attacks ? "policy attacks" : "policy",
    columns: [
      ...(attacks
        ? [
            {
              label: "Risk",
              cell: (row: PolicyRow) =>
                h("span", { class: `badge risk risk-${row.attack}`, "data-risk": row.attack }, riskLabel(row.attack)),
            },
          ]
        : []),
      { label: "Denials", numeric: true, cell: (row) => count(row.count) },
      { label: "Trend", cell: trend },
      { label: "Tool", cell: (row) => toolWithHostNames(row.canonicalTool, row.tools) },
      { label: "Call", cell: (row) => h("code", {}, row.example) },
      { label: "Seen (UTC)", cell: (row) => seen(row) },
      { label: "Sessions", cell: sessionsCell },
      {
        label: "Denied by",
        cell: (row) => row.sources.map((entry) => `${entry.source} ${count(entry.count)}`).join(", "),
      },
      attacks
        ? {
            label: "Deny rule",
            cell: (row) => (row.denyRule ? h("code", {}, row.denyRule) : h("span", { class: "muted" }, "a deny rule")),
          }
        : {
            label: "Allow rule",
            cell: (row) =>
              row.allowRules.length === 0
                ? h("span", { class: "muted" }, `none: ${row.noRule ?? "no allow rule changes this"}`)
                : row.allowRules.map((entry) =>
                    h(
                      "div",
                      { class: "allow-rule" },
                      h("code", { class: "rule" }, entry.rule),
                      " ",
                      copyButton(entry.rule),
                      h("div", { class: "muted" }, `in ${entry.language}`),
                    ),
                  ),
          },
      ...(attacks
        ? []
        : [
            {
              label: "Status",
              cell: (row: PolicyRow) => [
                row.denyRuleWins
                  ? h(
                      "span",
                      { class: "badge badge-deny" },
                      row.denyRule ? `deny rule wins: ${row.denyRule}` : "a deny rule wins",
                    )
                  : row.allowRules.length === 0
                    ? h("span", { class: "muted" }, "no allow rule changes this")
                    : h("span", { class: "muted" }, "an allow rule would let it through"),
                row.risk
                  ? h("div", { class: "risk-note", "data-risk": row.risk }, `careful: ${riskLabel(row.risk)}`)
                  : null,
              ],
            },
          ]),
    ],
    rows,
  });
}

function riskLabel(kind: AttackKind | null): string {
  return kind === null ? "" : RISK_LABELS[kind];
}

/** this window against the one of the same length before it: `▲ 2 before`, the sentence in its title */
function trend(row: PolicyRow): HTMLElement {
  const { count: now, previousCount: before } = row;
  const [text, words, className] =
    before === 0
      ? ["new", "none in the window before", "trend-up"]
      : now > before
        ? [`▲ ${count(before)} before`, `${count(before)} in the window before`, "trend-up"]
        : now < before
          ? [`▼ ${count(before)} before`, `${count(before)} in the window before`, "trend-down"]
          : [`= ${count(before)} before`, `${count(before)} in the window before too`, "trend-flat"];
  return h("span", { class: `trend ${className}`, title: words, "aria-label": `trend: ${words}` }, text);
}

/** first and last denial of the call, one above the other */
function seen(row: PolicyRow): HTMLElement {
  const stamp = (at: number) => h("time", { datetime: new Date(at).toISOString() }, dateTime(at));
  return h(
    "span",
    { class: "seen" },
    stamp(row.firstAt),
    row.lastAt === row.firstAt ? null : [h("br"), "to ", stamp(row.lastAt)],
  );
}

/** the sessions behind a call: how many, and the most recent as links to their timelines */
function sessionsCell(row: PolicyRow): HTMLElement {
  const more = row.sessionCount - row.sessions.length;
  return h(
    "details",
    { class: "call-sessions" },
    h("summary", {}, `${count(row.sessionCount)} ${row.sessionCount === 1 ? "session" : "sessions"}`),
    h(
      "ul",
      {},
      ...row.sessions.map((session) =>
        h(
          "li",
          {},
          h("a", linkTo({ view: "session", session: session.sessionId }), shortId(session.sessionId)),
          h(
            "span",
            { class: "muted" },
            ` ${session.host ?? ""} · ${count(session.count)} · ${dateTime(session.lastAt)}`,
          ),
        ),
      ),
      more > 0 ? h("li", { class: "muted" }, `and ${count(more)} more`) : null,
    ),
  );
}

function copyButton(text: string): HTMLButtonElement {
  const button = h("button", { type: "button", class: "copy", "aria-label": `Copy the rule ${text}` }, "Copy");
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select and copy";
    }
  });
  return button;
}
