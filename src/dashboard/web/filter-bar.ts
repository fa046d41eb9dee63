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

/** keys that step a closed select's value one option at a time */
const STEP_KEYS = new Set(["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight", "PageUp", "PageDown", "Home", "End"]);
/** how long the arrow keys rest before the view follows the select */
export const KEY_REST_MS = 400;

/**
 * labels toolgate writes itself (`toolgate analyze --save`'s origin and transcript format, the proxies' agent and
 * server), listed after the ones a person set (`TOOLGATE_LABELS`, an SDK's `labels`)
 */
const TOOLGATE_LABEL_KEYS = ["origin", "format", "agent", "server"];

function isToolgateLabel(label: string): boolean {
  return TOOLGATE_LABEL_KEYS.includes(label.slice(0, label.indexOf(":")));
}

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
  const select = (
    name: string,
    label: string,
    values: readonly (readonly [string, string])[],
    anyLabel?: string,
    groups?: { label: string; values: readonly (readonly [string, string])[] }[],
  ) => {
    const current = params.get(name) ?? (name === "since" ? since : "");
    const all = [...values, ...(groups ?? []).flatMap((group) => group.values)];
    const known = all.some(([value]) => value === current);
    const option = ([value, text]: readonly [string, string]) =>
      h("option", { value, selected: value === current }, text);
    const choices = [
      ...(anyLabel === undefined ? [] : [["", anyLabel] as const]),
      ...values,
      ...(known || current === "" ? [] : [[current, name === "since" ? describeSince(current) : current] as const]),
    ];
    const commit = (value: string) =>
      navigate({ [name]: name === "since" && value === defaultSince ? null : value || null, page: null });
    // arrow keys on a closed select change its value at each press: the view follows once the keys rest (or at
    // Enter, or when focus leaves), not at every step; a mouse choice or a typed letter applies at once
    let stepping = false;
    let pending: ReturnType<typeof setTimeout> | undefined;
    const element = h(
      "select",
      {
        name,
        id: `filter-${name}`,
        onkeydown: (event: Event) => {
          const key = (event as KeyboardEvent).key;
          if (STEP_KEYS.has(key)) stepping = true;
          else if (key === "Enter" && pending !== undefined) {
            clearTimeout(pending);
            pending = undefined;
            commit(element.value);
          }
        },
        onchange: () => {
          clearTimeout(pending);
          pending = undefined;
          if (!stepping) return commit(element.value);
          stepping = false;
          pending = setTimeout(() => {
            pending = undefined;
            commit(element.value);
          }, KEY_REST_MS);
        },
        onblur: () => {
          if (pending === undefined) return;
          clearTimeout(pending);
          pending = undefined;
          commit(element.value);
        },
      },
      ...choices.map(option),
      ...(groups ?? [])
        .filter((group) => group.values.length > 0)
        .map((group) => h("optgroup", { label: group.label }, ...group.values.map(option))),
    );
    return h("label", {}, `${label} `, element);
  };
  const pairs = (values: string[]) => values.map((value) => [value, value] as const);
  const active = ["tool", "host", "label"].some((key) => params.has(key));
  return h(
    "form",
    { class: "filters", role: "search", "aria-label": "Filters", onsubmit: (event: Event) => event.preventDefault() },
    shown.since ? select("since", "Time range", RANGES) : null,
    select("host", "Host", pairs(options.hosts), "All hosts"),
    select("tool", "Tool", pairs(options.tools), "All tools"),
    select("label", "Label", [], "All labels", [
      { label: "Labels you set", values: pairs(options.labels.filter((label) => !isToolgateLabel(label))) },
      { label: "Recorded by toolgate", values: pairs(options.labels.filter(isToolgateLabel)) },
    ]),
    active
      ? h(
          "button",
          { type: "button", onclick: () => navigate({ tool: null, host: null, label: null, page: null }) },
          "Clear filters",
        )
      : null,
  );
}
