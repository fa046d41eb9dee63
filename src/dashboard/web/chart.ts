import uPlot from "uplot";
import { h } from "./dom.js";
import { sourceColour } from "./source-colours.js";

const DAY_SECONDS = 86_400;
/** a window longer than this starts at its first day with data instead (one bar per day stays readable) */
const MAX_DAYS = 800;
/** the room one day label needs on the axis */
const TICK_SPACE = 96;
const HEIGHT = 260;

/**
 * The days the axis shows: every UTC day from the window's first to its last (a bar per day, empty days at zero),
 * so the axis is the chosen window, not the data's extent. A very long window starts at its first day with data.
 */
export function windowDays(options: { since: string; end: string; days: readonly string[] }): string[] {
  const first = Date.parse(`${options.since.slice(0, 10)}T00:00:00Z`);
  const last = Date.parse(`${options.end.slice(0, 10)}T00:00:00Z`);
  const dataFirst = options.days[0] === undefined ? last : Date.parse(`${options.days[0]}T00:00:00Z`);
  const start = (last - first) / 86_400_000 + 1 > MAX_DAYS ? Math.min(dataFirst, last) : first;
  const days: string[] = [];
  for (let at = start; at <= last && days.length <= MAX_DAYS; at += 86_400_000)
    days.push(new Date(at).toISOString().slice(0, 10));
  // days with data outside the window (a clock skew) still show
  for (const day of options.days) if (!days.includes(day)) days.push(day);
  return days.sort();
}

/** day-aligned ticks: every `step` days from the first, so that the labels fit the width */
export function dayTicks(options: { first: number; last: number; width: number }): number[] {
  const count = Math.round((options.last - options.first) / DAY_SECONDS);
  const fit = Math.max(1, Math.floor(options.width / TICK_SPACE));
  const steps = [1, 2, 3, 7, 14, 30, 61, 91, 182, 365];
  const step = steps.find((candidate) => Math.ceil(count / candidate) <= fit) ?? Math.ceil(count / fit);
  const ticks: number[] = [];
  for (let at = options.first; at < options.last; at += step * DAY_SECONDS) ticks.push(at);
  return ticks;
}

/**
 * Denials per day as bars stacked by source (uPlot, bundled), over the chosen window (`since` to `end`): x runs from
 * the window's first UTC day to the end of its last, one bar per day centred in it, ticks on day boundaries spaced
 * to fit; y starts at 0. uPlot draws series in order, so each series is the running total up to its source and the
 * tallest is drawn first. Hovering a day shows its figures; the table beside the chart has all of them. The chart
 * fills its panel, on the first load and whenever the panel's width changes.
 */
export function stackedBars(options: {
  days: string[];
  sources: string[];
  counts: number[][];
  label: string;
  since: string;
  end: string;
}): HTMLElement {
  const { sources } = options;
  const days = windowDays(options);
  const index = new Map(options.days.map((day, position) => [day, position]));
  const counts = options.counts.map((row) => days.map((day) => row[index.get(day) ?? -1] ?? 0));
  const starts = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const x = starts.map((start) => start + DAY_SECONDS / 2);
  const first = starts[0] ?? 0;
  const last = (starts.at(-1) ?? 0) + DAY_SECONDS;
  const cumulative: number[][] = [];
  let running = days.map(() => 0);
  for (const row of counts) {
    running = running.map((value, position) => value + (row[position] ?? 0));
    cumulative.push(running);
  }
  const most = Math.max(1, ...running);
  const order = sources.map((_, position) => position).reverse();
  const tip = h("div", { class: "chart-tip", "aria-hidden": "true", hidden: true });
  const container = h(
    "div",
    {
      class: "chart",
      role: "img",
      "aria-label": options.label,
    },
    tip,
  );
  const width = () => Math.max(240, Math.floor(container.clientWidth || container.parentElement?.clientWidth || 0));
  const ticksFor = (plotWidth: number) => dayTicks({ first, last, width: plotWidth });
  const plot = new uPlot(
    {
      width: width(),
      height: HEIGHT,
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: {
        x: { time: false, range: () => [first, last] },
        y: { range: (_u, _min, max) => [0, Math.max(most, max ?? 0) * 1.05] },
      },
      axes: [
        {
          stroke: "#374151",
          grid: { stroke: "#e5e7eb" },
          splits: (u) => ticksFor(u.bbox.width / (window.devicePixelRatio || 1)),
          values: (_u, splits) => {
            // what the axis drew, for tests and tools
            container.dataset.tickTimes = splits.map((at) => new Date(at * 1000).toISOString()).join(" ");
            return splits.map((at) => new Date(at * 1000).toISOString().slice(0, 10));
          },
        },
        {
          stroke: "#374151",
          grid: { stroke: "#e5e7eb" },
          size: 56,
          // whole denials only
          splits: (u) => {
            const max = u.scales.y?.max ?? most;
            const step = Math.max(1, niceStep(max / 5));
            const ticks: number[] = [];
            for (let value = 0; value <= max; value += step) ticks.push(value);
            return ticks;
          },
        },
      ],
      hooks: {
        // what the chart drew, for tests and tools: the axis ranges
        draw: [
          (u) => {
            container.dataset.xMin = new Date((u.scales.x?.min ?? 0) * 1000).toISOString();
            container.dataset.xMax = new Date((u.scales.x?.max ?? 0) * 1000).toISOString();
            container.dataset.yMin = String(u.scales.y?.min ?? "");
          },
        ],
        setCursor: [
          (u) => {
            const dayIndex = u.cursor.idx;
            if (dayIndex == null || u.cursor.left == null || u.cursor.left < 0) {
              tip.hidden = true;
              return;
            }
            const parts = sources
              .map((source, position) => [source, counts[position]?.[dayIndex] ?? 0] as const)
              .filter(([, value]) => value > 0)
              .map(([source, value]) => `${source} ${value}`);
            const total = running[dayIndex] ?? 0;
            tip.textContent = `${days[dayIndex]}: ${total} ${total === 1 ? "denial" : "denials"}${parts.length > 0 ? ` (${parts.join(", ")})` : ""}`;
            tip.hidden = false;
            tip.style.left = `${Math.min(u.cursor.left + 64, Math.max(0, width() - 220))}px`;
          },
        ],
      },
      series: [
        {
          label: "day",
          value: (_u, value) => (value == null ? "" : new Date(value * 1000).toISOString().slice(0, 10)),
        },
        ...order.map((position) => ({
          label: sources[position] as string,
          fill: sourceColour(sources[position] as string),
          stroke: sourceColour(sources[position] as string),
          width: 0,
          paths: uPlot.paths.bars?.({ size: [0.8, 48], gap: 1, align: 0 }),
          points: { show: false },
        })),
      ],
    },
    [x, ...order.map((position) => cumulative[position] as number[])],
    container,
  );
  // sized to its panel when it is first laid out (the view is built before it is on the page) and whenever the
  // panel's width changes
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) return;
    const next = width();
    if (next !== plot.width) plot.setSize({ width: next, height: HEIGHT });
  });
  observer.observe(container);
  return container;
}

/** 1, 2, 5, 10, 20, 50, ... at or above `value` */
function niceStep(value: number): number {
  if (value <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= value) return factor * power;
  return 10 * power;
}
