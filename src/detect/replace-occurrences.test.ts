import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { replaceOccurrences } from "./replace-occurrences.js";

describe("replaceOccurrences", () => {
  it("agrees with split/join on both the native and the linear path", () => {
    const small = fc.string({ unit: fc.constantFrom("a", "b", "-"), maxLength: 40 });
    fc.assert(
      fc.property(
        small,
        fc.string({ unit: fc.constantFrom("a", "b", "-"), minLength: 1, maxLength: 5 }),
        (text, needle) => {
          const expected = text.split(needle);
          const native = replaceOccurrences(text, needle, "#");
          expect(native).toEqual({ text: expected.join("#"), count: expected.length - 1 });
          // repeat the text until the product of lengths forces the linear scan
          const big = text.repeat(Math.ceil((1 << 22) / Math.max(1, text.length * needle.length)) + 1);
          const bigExpected = big.split(needle);
          expect(replaceOccurrences(big, needle, "#")).toEqual({
            text: bigExpected.join("#"),
            count: bigExpected.length - 1,
          });
        },
      ),
      { numRuns: 60 },
    );
  });

  it("handles a periodic needle in a periodic megabyte", () => {
    const needle = "-a".repeat(300);
    const text = `x${"-a".repeat(500_000)}`;
    const result = replaceOccurrences(text, needle, "#");
    expect(result.count).toBe(Math.floor(500_000 / 300));
    expect(result.text.startsWith("x###")).toBe(true);
  });
});
