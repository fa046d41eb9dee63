import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isoTime } from "./iso-time.js";

const reference = (at: number): string => new Date(at).toISOString();

describe("isoTime", () => {
  it("is toISOString for any whole ms from 1970 to 9999, in any order (the minute cache never leaks)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 253_402_300_799_999 }), { minLength: 1, maxLength: 50 }),
        (times) => {
          for (const at of times) expect(isoTime(at)).toBe(reference(at));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("is toISOString around minute, hour, day and year edges and within one minute", () => {
    const base = Date.UTC(2026, 11, 31, 23, 59, 0);
    for (let offset = -2000; offset <= 62_000; offset += 7) {
      expect(isoTime(base + offset)).toBe(reference(base + offset));
    }
    for (const at of [0, 1, 9, 10, 99, 100, 999, 1000, 59_999, 60_000, 253_402_300_799_999]) {
      expect(isoTime(at)).toBe(reference(at));
    }
  });

  it("leaves fractions, negatives, far years and non-numbers to toISOString (its string or its RangeError)", () => {
    for (const at of [1.5, 1_795_464_546_460.25, -1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15]) {
      expect(isoTime(at)).toBe(reference(at));
    }
    for (const at of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(() => isoTime(at)).toThrow(RangeError);
    }
  });
});
