import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseIsoTime, timeOf } from "./read-lines.js";

const digit = fc.integer({ min: 0, max: 9 }).map(String);
/** the hosts' shape with any digits (months 13+, hours 24-29, minutes and seconds 60+) and now and then a wrong separator */
const nearIso = fc
  .tuple(
    fc.array(digit, { minLength: 17, maxLength: 17 }),
    fc.constantFrom("-", "-", "-", "/", " "),
    fc.constantFrom("T", "T", "T", " ", "t"),
    fc.constantFrom(":", ":", ":", "."),
    fc.constantFrom(".", ".", ".", ","),
    fc.constantFrom("Z", "Z", "Z", "z", "+"),
  )
  .map(([d, dash, t, colon, dot, zone]) => {
    const [y1, y2, y3, y4, mo1, mo2, d1, d2, h1, h2, mi1, mi2, s1, s2, ms1, ms2, ms3] = d;
    return `${y1}${y2}${y3}${y4}${dash}${mo1}${mo2}-${d1}${d2}${t}${h1}${h2}${colon}${mi1}${mi2}:${s1}${s2}${dot}${ms1}${ms2}${ms3}${zone}`;
  });
const realistic = fc.integer({ min: 0, max: 253_402_300_799_999 }).map((at) => new Date(at).toISOString());

describe("parseIsoTime", () => {
  it("is Date.parse on the hosts' shape, near it and off it, in any order (the minute cache never leaks)", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(realistic, nearIso, fc.string()), { minLength: 1, maxLength: 40 }), (values) => {
        for (const value of values) expect(parseIsoTime(value)).toBe(Date.parse(value));
      }),
      { numRuns: 3000 },
    );
  });

  it("is Date.parse across second, minute, day and year edges and at hour 24", () => {
    const base = Date.UTC(2026, 11, 31, 23, 58, 0);
    for (let offset = 0; offset <= 130_000; offset += 13) {
      const value = new Date(base + offset).toISOString();
      expect(parseIsoTime(value)).toBe(Date.parse(value));
    }
    for (const value of [
      "2026-11-23T24:00:00.000Z",
      "2026-11-23T24:00:30.000Z",
      "2026-11-23T23:59:60.000Z",
      "2026-02-30T10:00:00.000Z",
      "2026-11-23T19:22:54.908Z",
      "2026-11-23T19:22:54.9080",
    ]) {
      expect(parseIsoTime(value)).toBe(Date.parse(value));
    }
  });

  it("is what timeOf reads strings with", () => {
    expect(timeOf("2026-11-23T19:22:54.908Z", 0)).toBe(1_795_461_774_908);
    expect(timeOf("not a time", 7)).toBe(7);
  });
});
