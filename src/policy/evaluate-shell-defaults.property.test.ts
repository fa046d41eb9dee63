import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hasSubstitution, SUBSTITUTION } from "./evaluate-shell-defaults.js";

describe("hasSubstitution", () => {
  it("finds a command or process substitution exactly where the pattern does", () => {
    const unit = fc.constantFrom("$", "(", ")", "<", ">", "`", "$(", "<(", ">(", "a", " ", "x y", "é", "\\", "'", '"');
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (units) => {
        const text = units.join("");
        expect(hasSubstitution(text)).toBe(SUBSTITUTION.test(text));
      }),
      { numRuns: 20000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        expect(hasSubstitution(text)).toBe(SUBSTITUTION.test(text));
      }),
      { numRuns: 5000 },
    );
  });
});
