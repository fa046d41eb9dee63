import { describe, expect, it } from "vitest";
import { truncateStrings } from "./truncate-strings.js";

describe("truncateStrings (what enters state and records)", () => {
  it("cuts long strings on a code-point boundary and says how much", () => {
    expect(truncateStrings("abcdef", 3)).toBe("abc…[3 more characters]");
    expect(truncateStrings(`ab${"😀"}cd`, 3)).toBe("ab…[4 more characters]");
  });

  it("returns values that need no cut as they are", () => {
    const value = { a: [1, "x", { b: null }], c: true };
    expect(truncateStrings(value, 10)).toBe(value);
  });

  it("keeps an array's first items and counts the rest", () => {
    // before: a 5-million-element array entered session state whole (every later call then took 17 s)
    const huge = new Array(5_000_000).fill(0);
    const out = truncateStrings({ items: huge }, 100) as { items: unknown[] };
    expect(out.items).toHaveLength(51);
    expect(out.items.at(-1)).toBe("…[4999950 more items]");
  });

  it("keeps an object's first keys and counts the rest", () => {
    const wide: Record<string, number> = {};
    for (let index = 0; index < 10_000; index++) wide[`k${index}`] = index;
    const out = truncateStrings(wide, 100) as Record<string, unknown>;
    expect(Object.keys(out)).toHaveLength(51);
    expect(out["…"]).toBe("[9950 more keys]");
  });

  it("stops deep nesting and bounds the values copied in all", () => {
    let deep: unknown = "bottom";
    for (let index = 0; index < 10_000; index++) deep = [deep];
    expect(JSON.stringify(truncateStrings(deep, 100))).toContain("…[nested value cut]");
    const grid = Array.from({ length: 50 }, () => Array.from({ length: 50 }, () => "x".repeat(50)));
    const out = truncateStrings(grid, 100);
    expect(JSON.stringify(out).length).toBeLessThan(100_000);
  });

  it("keeps a `__proto__` key as data, never as a prototype", () => {
    const value = JSON.parse(`{"__proto__": {"polluted": "${"x".repeat(50)}"}}`) as object;
    const out = truncateStrings(value, 10) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.hasOwn(out, "__proto__")).toBe(true);
  });
});
