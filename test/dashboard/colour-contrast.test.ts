import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SOURCE_COLOURS } from "../../src/dashboard/web/source-colours.js";

/** WCAG 2 contrast ratio of two #rrggbb colours */
function contrast(a: string, b: string): number {
  const luminance = (hex: string) => {
    const [r, g, b] = [1, 3, 5].map((start) => {
      const channel = Number.parseInt(hex.slice(start, start + 2), 16) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    }) as [number, number, number];
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe("dashboard colours", () => {
  it("every source colour reads at 4.5:1 on the page's white and under the badges' white text", () => {
    for (const [source, colour] of Object.entries(SOURCE_COLOURS)) {
      expect(contrast(colour, "#ffffff"), source).toBeGreaterThanOrEqual(4.5);
    }
  });

  it("text, muted text, links and the focus outline pass on white and on the panels", () => {
    const css = readFileSync(join(import.meta.dirname, "../../src/dashboard/web/dashboard.css"), "utf8");
    const variable = (name: string) => new RegExp(`--${name}: (#[0-9a-f]{6})`).exec(css)?.[1] as string;
    for (const background of ["#ffffff", variable("panel")]) {
      expect(contrast(variable("text"), background)).toBeGreaterThanOrEqual(7);
      expect(contrast(variable("muted"), background)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(variable("accent"), background)).toBeGreaterThanOrEqual(4.5);
      expect(contrast(variable("deny"), background)).toBeGreaterThanOrEqual(4.5);
    }
    const outline = /outline: 3px solid (#[0-9a-f]{6})/.exec(css)?.[1] as string;
    expect(contrast(outline, "#ffffff")).toBeGreaterThanOrEqual(3); // a focus indicator: 3:1 (WCAG 2.2, 1.4.11)
  });
});
