import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRule } from "./compile-rule.js";
import { analyzeShellCommand } from "./shell/analyze-shell-command.js";
import { indexToolRules, matchingCommandRules } from "./tool-rules.js";

/** The first-word index must find exactly the command rules a full scan finds. */
const word = fc.constantFrom(
  "git",
  "push",
  "ls",
  "npm",
  "run",
  '"a b"',
  "'x'",
  '""',
  "-la",
  "*",
  "git:*",
  "ls*",
  ":*",
  "a\tb",
  "git push",
  "é",
);
const separator = fc.constantFrom(" ", "  ", "\t");
const text = fc.array(fc.tuple(word, separator), { minLength: 1, maxLength: 5 }).map((words) =>
  words
    .map(([part, space]) => `${part}${space}`)
    .join("")
    .trimEnd(),
);
const context = { cwd: "/repo", homeDir: "/home/me", projectRoot: "/repo" };

describe("indexToolRules", () => {
  it("finds the same command rules as testing every rule", () => {
    fc.assert(
      fc.property(fc.array(text, { maxLength: 8 }), text, (specifiers, command) => {
        const rules = specifiers.flatMap((specifier, order) => {
          const compiled = compileRule({ rule: `Bash(${specifier})`, behavior: "deny" }, context).compiled;
          if (compiled === undefined) return [];
          compiled.order = order;
          return [compiled];
        });
        const index = indexToolRules(rules);
        for (const sub of analyzeShellCommand(command).subcommands) {
          const found: typeof rules = [];
          matchingCommandRules(index, { sub, into: found });
          const expected = rules.filter(
            (rule) => rule.kind === "command" && (rule.test(sub.text) || rule.test(sub.plain)),
          );
          expect(new Set(found)).toEqual(new Set(expected));
          expect(found.length).toBe(new Set(found).size);
        }
      }),
      { numRuns: 10000 },
    );
  });
});
