import { getJson } from "../api.js";
import { emptyState, h, table } from "../dom.js";
import { count, toolWithHostNames } from "../format.js";
import type { Policy, PolicyRow } from "../types.js";

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
    h("h3", {}, "Looks like an attack"),
    h(
      "p",
      { class: "note" },
      "A deny rule refused a destructive or exfiltrating call. Keep these rules; look at what led the agent there (a prompt injection in a file, a web page, an issue).",
    ),
    policy.attacks.length === 0
      ? h("p", { class: "ok" }, "None in this window.")
      : rulesTable("Deny-rule hits on destructive or exfiltrating calls", policy.attacks, true),
    h("h3", {}, "Policy may be too tight"),
    h(
      "p",
      { class: "note" },
      "The most-denied calls, with the narrowest rule that would allow each. Add it to permissions.allow in toolgate.config.json or your Claude Code settings if the agent should be able to do this.",
    ),
    policy.tooTight.length === 0
      ? h("p", {}, "None in this window.")
      : rulesTable("Most-denied calls", policy.tooTight, false),
  );
}

function rulesTable(caption: string, rows: PolicyRow[], attacks: boolean): HTMLElement {
  return table({
    caption,
    ...(attacks ? { className: "attacks" } : {}),
    columns: [
      { label: "Denials", numeric: true, cell: (row) => count(row.count) },
      { label: "Tool", cell: (row) => toolWithHostNames(row.canonicalTool, [row.tool]) },
      { label: "Call", cell: (row) => h("code", {}, row.example) },
      {
        label: "Denied by",
        cell: (row) => row.sources.map((entry) => `${entry.source} ${count(entry.count)}`).join(", "),
      },
      attacks
        ? { label: "Kind", cell: (row) => row.attack ?? "" }
        : {
            label: "Allow rule",
            cell: (row) =>
              row.allowRule === null
                ? h("span", { class: "muted" }, `none: ${row.noRule ?? "no allow rule changes this"}`)
                : [
                    h("code", { class: "rule" }, row.allowRule),
                    " ",
                    copyButton(row.allowRule),
                    h("div", { class: "muted" }, `in ${row.ruleLanguage ?? "toolgate permissions.allow"}`),
                  ],
          },
      {
        label: "Status",
        cell: (row) =>
          row.denyRuleWins
            ? h(
                "span",
                { class: "badge badge-deny" },
                row.denyRule ? `deny rule wins: ${row.denyRule}` : "a deny rule wins",
              )
            : row.allowRule === null
              ? h("span", { class: "muted" }, "no allow rule changes this")
              : h("span", { class: "muted" }, "an allow rule would let it through"),
      },
    ],
    rows,
  });
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
