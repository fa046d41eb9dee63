import { describe, expect, it } from "vitest";
import type { Behavior } from "../core/decision.js";
import { combineParts, pickWinningRule } from "./precedence.js";

type Row = [label: string, matches: [Behavior, number][], winner: number | undefined];

/** The precedence table (house invariant 6): index of the winning match, or undefined. */
const TABLE: Row[] = [
  ["nothing matched", [], undefined],
  ["a lone allow", [["allow", 0]], 0],
  [
    "deny beats allow",
    [
      ["allow", 0],
      ["deny", 0],
    ],
    1,
  ],
  [
    "deny beats ask",
    [
      ["ask", 0],
      ["deny", 0],
    ],
    1,
  ],
  [
    "ask beats allow",
    [
      ["allow", 0],
      ["ask", 0],
    ],
    1,
  ],
  [
    "deny beats ask and allow in any order",
    [
      ["deny", 0],
      ["allow", 0],
      ["ask", 0],
    ],
    0,
  ],
  [
    "first of equal rules wins",
    [
      ["deny", 0],
      ["deny", 0],
    ],
    0,
  ],
  [
    "higher priority beats behavior (opencode last match, Gemini tiers)",
    [
      ["deny", 1],
      ["allow", 2],
    ],
    1,
  ],
  [
    "lower priority never wins",
    [
      ["allow", 3.5],
      ["deny", 3.1],
    ],
    0,
  ],
  [
    "deny wins a priority tie",
    [
      ["allow", 4.95],
      ["deny", 4.95],
    ],
    1,
  ],
];

describe("pickWinningRule", () => {
  for (const [label, matches, winner] of TABLE) {
    it(label, () => {
      const ranked = matches.map(([behavior, priority]) => ({ behavior, priority }));
      const result = pickWinningRule(ranked);
      expect(result === undefined ? undefined : ranked.indexOf(result)).toBe(winner);
    });
  }
});

describe("combineParts (subcommands of one command)", () => {
  const rows: [(Behavior | undefined)[], Behavior | undefined][] = [
    [["allow", "allow"], "allow"],
    [["allow", undefined], undefined],
    [[undefined, "ask"], "ask"],
    [["allow", "ask", "deny"], "deny"],
    [["ask", "allow"], "ask"],
    [[], "allow"],
  ];
  for (const [parts, expected] of rows) {
    it(`${JSON.stringify(parts)} -> ${expected}`, () => expect(combineParts(parts)).toBe(expected));
  }
});
