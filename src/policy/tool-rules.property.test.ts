import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileRule } from "./compile-rule.js";
import { hostOf } from "./match/domain-specifier.js";
import { analyzeShellCommand, isPlainSubcommand } from "./shell/analyze-shell-command.js";
import { indexToolRules, matchingCommandRules, matchingDomainRules } from "./tool-rules.js";

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
  it("finds a plain subcommand's literal rules word by word exactly as by its text (same rules, same order)", () => {
    let plain = 0;
    let literal = 0;
    const lines = fc.array(fc.tuple(fc.constantFrom("git", "push", "-la"), separator), {
      minLength: 1,
      maxLength: 4,
    });
    const command = lines.map((words) =>
      words
        .map(([part, space]) => `${part}${space}`)
        .join("")
        .trimEnd(),
    );
    const specifier = fc.oneof(
      command,
      command.map((text) => `${text} *`),
    );
    fc.assert(
      fc.property(fc.array(specifier, { maxLength: 8 }), command, (specifiers, line) => {
        const rules = specifiers.flatMap((text, order) => {
          const compiled = compileRule({ rule: `Bash(${text})`, behavior: "deny" }, context).compiled;
          if (compiled === undefined) return [];
          compiled.order = order;
          return [compiled];
        });
        const index = indexToolRules(rules);
        for (const sub of analyzeShellCommand(line).subcommands) {
          if (!isPlainSubcommand(sub)) continue;
          plain++;
          const byText: typeof rules = [];
          matchingCommandRules(index, { sub, into: byText });
          const byWords: typeof rules = [];
          matchingCommandRules(index, { sub, into: byWords, words: sub.words });
          expect(byWords).toEqual(byText);
          if (byText.some((rule) => rule.commandLiteral !== undefined)) literal++;
        }
      }),
      { numRuns: 10000 },
    );
    // the comparison must run on many plain subcommands that literal rules match
    expect(plain).toBeGreaterThan(5000);
    expect(literal).toBeGreaterThan(1000);
  });
  it("finds the same domain rules through the host index as testing every rule", () => {
    const label = fc.constantFrom(
      "example",
      "Example",
      "EXAMPLE",
      "com",
      "org",
      "docs",
      "a",
      "*",
      "ex*",
      "xn--bcher-kva",
    );
    const domain = fc
      .tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom("", ".", " "))
      .map(([labels, end]) => `${labels.join(".")}${end}`);
    let exact = 0;
    fc.assert(
      fc.property(fc.array(domain, { maxLength: 8 }), domain, (domains, host) => {
        const rules = domains.flatMap((specifier, order) => {
          const compiled = compileRule({ rule: `WebFetch(domain:${specifier})`, behavior: "deny" }, context).compiled;
          if (compiled === undefined) return [];
          compiled.order = order;
          return [compiled];
        });
        const index = indexToolRules(rules);
        const read = hostOf(`https://${host.trim().replaceAll("*", "x")}/page`);
        if (read === undefined) return;
        const found = matchingDomainRules(index, read);
        const expected = rules.filter((rule) => rule.test(read));
        expect(new Set(found)).toEqual(new Set(expected));
        expect(found.length).toBe(expected.length);
        if (found.some((rule) => rule.domainHost !== undefined)) exact++;
      }),
      { numRuns: 10000 },
    );
    // the index must be exercised: many hosts matched through it
    expect(exact).toBeGreaterThan(200);
  });
});
