import uPlot from "uplot";
import { h } from "./dom.js";
import { sourceColour } from "./source-colours.js";

/**
 * Denials per day as bars stacked by source (uPlot, bundled). uPlot draws series in order, so each series is the
 * running total up to its source and the tallest is drawn first; the figures are in the table beside it.
 */
export function stackedBars(options: {
  days: string[];
  sources: string[];
  counts: number[][];
  label: string;
}): HTMLElement {
  const { days, sources, counts } = options;
  const x = days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000);
  const cumulative: number[][] = [];
  let running = days.map(() => 0);
  for (const row of counts) {
    running = running.map((value, index) => value + (row[index] ?? 0));
    cumulative.push(running);
  }
  const order = sources.map((_, index) => index).reverse();
  const container = h("div", { class: "chart", role: "img", "aria-label": options.label });
  const width = () => Math.max(320, (container.parentElement?.clientWidth ?? 900) - 4);
  const plot = new uPlot(
    {
      width: width(),
      height: 260,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: true } },
      axes: [
        { stroke: "#374151", grid: { stroke: "#e5e7eb" } },
        { stroke: "#374151", grid: { stroke: "#e5e7eb" }, size: 56 },
      ],
      series: [
        {
          label: "day",
          value: (_u, value) => (value == null ? "" : new Date(value * 1000).toISOString().slice(0, 10)),
        },
        ...order.map((index) => ({
          label: sources[index] as string,
          fill: sourceColour(sources[index] as string),
          stroke: sourceColour(sources[index] as string),
          width: 0,
          paths: uPlot.paths.bars?.({ size: [0.8, 48], gap: 1 }),
          points: { show: false },
          // the legend shows the source's own count, not the running total
          value: (_u: uPlot, _value: number | null, _series: number, dayIndex: number | null) =>
            dayIndex == null ? "" : String(counts[index]?.[dayIndex] ?? 0),
        })),
      ],
    },
    [x, ...order.map((index) => cumulative[index] as number[])],
    container,
  );
  // sized to its figure once the view is on the page, and again whenever the figure's width changes
  const observer = new ResizeObserver(() => {
    if (!container.isConnected) return observer.disconnect();
    plot.setSize({ width: width(), height: 260 });
  });
  queueMicrotask(() => container.parentElement && observer.observe(container.parentElement));
  return container;
}
