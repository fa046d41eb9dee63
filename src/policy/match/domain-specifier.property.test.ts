import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SIMPLE_URL, simpleUrlHost } from "./domain-specifier.js";

describe("simpleUrlHost", () => {
  it("reads the host exactly where the plain-URL pattern matches, and nothing where it does not", () => {
    const unit = fc.constantFrom(
      ...["http://", "https://", "http:/", "HTTP://", "ftp://", "a", "Z", "0", "9", "-", ".", ":", "80", "/", "?"],
      ...["#", "@", " ", "\\", "é", "%41", "_", "[", "]", "x.example.com", "\n"],
    );
    const check = (url: string): void => {
      expect(simpleUrlHost(url)).toBe(SIMPLE_URL.exec(url)?.[1]);
    };
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }), (units) => {
        check(units.join(""));
      }),
      { numRuns: 20000 },
    );
    fc.assert(
      fc.property(fc.constantFrom("http://", "https://"), fc.array(unit, { maxLength: 10 }), (scheme, units) => {
        check(`${scheme}${units.join("")}`);
      }),
      { numRuns: 20000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        check(`https://${text}`);
      }),
      { numRuns: 5000 },
    );
  });
});
