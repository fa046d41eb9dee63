import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { linesNaming } from "./call-tokens.js";

/** what linesNaming replaces: every line searched for every id */
const naive = (text: string, ids: readonly string[]) =>
  text.split("\n").filter((line) => ids.some((id) => id !== "" && line.includes(id)));

describe("linesNaming", () => {
  it("gives the lines that name an id, in order, once each", () => {
    const text = 'a toolu_1 x\n{"id":"toolu_2"} toolu_1\nnothing\n\ntoolu_3 at the end';
    expect(linesNaming(text, ["toolu_1", "toolu_3"])).toEqual([
      "a toolu_1 x",
      '{"id":"toolu_2"} toolu_1',
      "toolu_3 at the end",
    ]);
    expect(linesNaming(text, [])).toEqual([]);
    expect(linesNaming(text, [""])).toEqual([]);
  });

  it("finds what searching every line for every id finds", () => {
    const word = fc.constantFrom("toolu_1", "toolu_12", "toolu_2", "x", " ", "\n", '"', "tool", "u_1");
    fc.assert(
      fc.property(
        fc.array(word, { maxLength: 40 }).map((parts) => parts.join("")),
        fc.array(fc.constantFrom("toolu_1", "toolu_12", "toolu_2", "u_1", "x"), { maxLength: 4 }),
        (text, ids) => {
          expect(linesNaming(text, ids)).toEqual(naive(text, ids));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
