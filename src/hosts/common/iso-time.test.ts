import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { timeOfIso } from "./iso-time.js";
import { timeOf } from "./read-lines.js";

/** `timeOfIso` reads a host's UTC times digit by digit: the same number as `timeOf` (Date.parse) for every text. */
describe("timeOfIso", () => {
  test("equals timeOf on every time toISOString writes", () => {
    fc.assert(
      fc.property(fc.date({ min: new Date(-1e14), max: new Date(4e14), noInvalidDate: true }), (date) => {
        const text = date.toISOString();
        expect(timeOfIso(text, 7)).toBe(timeOf(text, 7));
      }),
      { numRuns: 5000 },
    );
  });

  test("equals timeOf on texts of that shape with any digits, and on other values", () => {
    const digit = fc.constantFrom(..."0123456789x ".split(""));
    const text = fc
      .array(digit, { minLength: 17, maxLength: 17 })
      .map(
        (d) =>
          `${d.slice(0, 4).join("")}-${d.slice(4, 6).join("")}-${d.slice(6, 8).join("")}T${d.slice(8, 10).join("")}:${d.slice(10, 12).join("")}:${d.slice(12, 14).join("")}.${d.slice(14, 17).join("")}Z`,
      );
    fc.assert(
      fc.property(fc.oneof(text, fc.string(), fc.integer(), fc.constant(undefined)), (value) => {
        expect(timeOfIso(value, 7)).toBe(timeOf(value, 7));
      }),
      { numRuns: 5000 },
    );
    for (const value of [
      "2026-02-29T00:00:00.000Z",
      "2026-02-30T00:00:00.000Z",
      "2026-04-31T00:00:00.000Z",
      "2026-02-32T00:00:00.000Z",
      "2026-11-27T23:59:60.000Z",
      "0099-01-01T00:00:00.000Z",
    ]) {
      expect(timeOfIso(value, 7), value).toBe(timeOf(value, 7));
    }
  });
});
