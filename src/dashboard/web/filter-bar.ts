import { getJson } from "./api.js";
import { h } from "./dom.js";
import type { FilterOptions } from "./types.js";
import { navigate } from "./url-state.js";

export const RANGES = [
  ["24h", "Last 24 hours"],
  ["7d", "Last 7 days"],
  ["30d", "Last 30 days"],
  ["90d", "Last 90 days"],
  ["365d", "Last year"],
] as const;

/** A `since` from the URL that is not one of the ranges: a date reads as one, a duration as it was typed. */
function describeSince(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time)) return `Last ${value}`;
  return `Since ${new Date(time).toISOString().slice(0, 16).replace("T", " ")} UTC`;
}

/**
 * The time range and the host, tool and label filters. Each change is one history entry, so the back button undoes
 * it; the selects are plain form controls (keyboard and screen readers as usual).
 */
export async function filterBar(
  params: URLSearchParams,
  shown: {
    defaultSince: string;
    /** false on Live: it shows what is stored from now on, so a time range does not apply there */
    since: boolean;
  },
): Promise<HTMLElement> {
  const { defaultSince } = shown;
  const since = params.get("since") ?? defaultSince;
  const options = await getJson<FilterOptions>(
    "/api/filters",
    new URLSearchParams(since === defaultSince ? {} : { since }),
  );
  const select = (name: string, label: string, values: readonly (readonly [string, string])[], anyLabel?: string) => {
    const current = params.get(name) ?? (name === "since" ? since : "");
    const known = values.some(([value]) => value === current);
    const choices = [
      ...(anyLabel === undefined ? [] : [["", anyLabel] as const]),
      ...values,
      ...(known || current === "" ? [] : [[current, name === "since" ? describeSince(current) : current] as const]),
    ];
    return h(
      "label",
      {},
      `${label} `,
      h(
        "select",
        {
          name,
          id: `filter-${name}`,
          onchange: (event: Event) => {
            const value = (event.target as HTMLSelectElement).value;
            navigate({ [name]: name === "since" && value === defaultSince ? null : value || null, page: null });
          },
        },
        ...choices.map(([value, text]) => h("option", { value, selected: value === current }, text)),
      ),
    );
  };
  const pairs = (values: string[]) => values.map((value) => [value, value] as const);
  const active = ["tool", "host", "label"].some((key) => params.has(key));
  return h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filters", onsubmit: (event: Event) => event.preventDefault() },
    shown.since ? select("since", "Time range", RANGES) : null,
    select("host", "Host", pairs(options.hosts), "All hosts"),
    select("tool", "Tool", pairs(options.tools), "All tools"),
    select("label", "Label", pairs(options.labels), "All labels"),
    active
      ? h(
          "button",
          { type: "button", onclick: () => navigate({ tool: null, host: null, label: null, page: null }) },
          "Clear filters",
        )
      : null,
  );
}
