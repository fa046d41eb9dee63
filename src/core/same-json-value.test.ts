import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sameJsonValue } from "./same-json-value.js";

describe("sameJsonValue", () => {
  it("compares JSON values by content, objects in any key order", () => {
    expect(sameJsonValue({ command: "ls", options: [1, "a", null] }, { options: [1, "a", null], command: "ls" })).toBe(
      true,
    );
    expect(sameJsonValue({ command: "ls" }, { command: "rm -rf /" })).toBe(false);
    expect(sameJsonValue({ command: "ls" }, { command: "ls", force: true })).toBe(false);
    expect(sameJsonValue({ command: "ls", force: undefined }, { command: "ls", other: undefined })).toBe(false);
    expect(sameJsonValue([1, 2], [2, 1])).toBe(false);
    expect(sameJsonValue([1], { 0: 1 })).toBe(false);
    expect(sameJsonValue({ 0: 1 }, [1])).toBe(false);
    expect(sameJsonValue(undefined, {})).toBe(false);
    expect(sameJsonValue("1", 1)).toBe(false);
    expect(sameJsonValue(undefined, undefined)).toBe(true);
  });

  it("calls nothing the same that it cannot look through: other objects, cycles, too much", () => {
    expect(sameJsonValue(new Date(0), new Date(1))).toBe(false);
    const date = new Date(0);
    expect(sameJsonValue({ at: date }, { at: date })).toBe(true);
    const left: Record<string, unknown> = { a: 1 };
    left["self"] = left;
    const right: Record<string, unknown> = { a: 1 };
    right["self"] = right;
    expect(sameJsonValue(left, right)).toBe(false);
    let deepLeft: unknown = "x";
    let deepRight: unknown = "x";
    for (let level = 0; level < 200_000; level += 1) {
      deepLeft = [deepLeft];
      deepRight = [deepRight];
    }
    expect(sameJsonValue(deepLeft, deepRight)).toBe(false);
    expect(sameJsonValue(deepLeft, deepLeft)).toBe(true);
  });

  it("agrees with a comparison of canonical JSON on generated values", () => {
    const canonical = (value: unknown): string =>
      JSON.stringify(value, (_key, inner) =>
        inner !== null && typeof inner === "object" && !Array.isArray(inner)
          ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
          : inner,
      );
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(sameJsonValue(a, b)).toBe(canonical(a) === canonical(b));
        expect(sameJsonValue(a, structuredClone(a))).toBe(true);
      }),
    );
  });
});
