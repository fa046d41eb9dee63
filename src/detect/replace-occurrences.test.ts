import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replaceOccurrences } from "./replace-occurrences.js";

const alphabet = fc.constantFrom("a", "b", "-");

describe("replaceOccurrences", () => {
  it("agrees with split/join on both the native and the linear path", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 60 }),
        fc.string({ unit: alphabet, minLength: 1, maxLength: 6 }),
        (text, needle) => {
          const parts = text.split(needle);
          const expected = { text: parts.join("#"), count: parts.length - 1 };
          expect(replaceOccurrences({ text, needle, replacement: "#" })).toEqual(expected);
          expect(replaceOccurrences({ text, needle, replacement: "#", nativeBudget: 0 })).toEqual(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("handles a periodic needle in a periodic megabyte", () => {
    const needle = "-a".repeat(300);
    const text = `x${"-a".repeat(500_000)}`;
    const result = replaceOccurrences({ text, needle, replacement: "#" });
    expect(result.count).toBe(Math.floor(500_000 / 300));
    expect(result.text.startsWith("x###")).toBe(true);
  });
});
