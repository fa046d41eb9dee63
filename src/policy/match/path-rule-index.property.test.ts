import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CompiledRule, compileRule } from "../compile-rule.js";
import { indexPathRules, matchingPathRules } from "./path-rule-index.js";

const context = { cwd: "/repo", homeDir: "/home/me", projectRoot: "/repo" };

function compiled(specifiers: readonly string[]): CompiledRule[] {
  return specifiers.flatMap((specifier, order) => {
    const rule = compileRule({ rule: `Read(${specifier})`, behavior: "deny" }, context).compiled;
    if (rule === undefined) return [];
    rule.order = order;
    return [rule];
  });
}

describe("matchingPathRules", () => {
  it("finds exactly the rules whose test accepts the path, in rule order, each once", () => {
    const segment = fc.constantFrom("repo", "src", "a", "ab", ".env", "docs", "x.md", "d228598", "d800716");
    const specifier = fc
      .tuple(
        fc.constantFrom("", "./", "/", "//", "~/"),
        fc.array(fc.oneof(segment, fc.constantFrom("*", "**", "*.md", "s*", "{a,src}")), {
          minLength: 1,
          maxLength: 3,
        }),
        fc.constantFrom("", "/", "/**"),
      )
      .map(([prefix, parts, suffix]) => `${prefix}${parts.join("/")}${suffix}`);
    const path = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${parts.join("/")}`);
    let matched = 0;
    fc.assert(
      fc.property(fc.array(specifier, { maxLength: 10 }), path, (specifiers, target) => {
        const rules = compiled(specifiers);
        const found = matchingPathRules(indexPathRules(rules), target);
        expect(found).toEqual(rules.filter((rule) => rule.test(target)));
        if (found.length > 0) matched++;
      }),
      { numRuns: 10000 },
    );
    expect(matched).toBeGreaterThan(1000);
  });

  it("tests the rules of a prefix that only hashes like the path's own, and leaves them out", () => {
    // `/repo/d228598` and `/repo/d800716` have the same 30-bit FNV-1a hash: one bucket of the index holds both
    const rules = compiled(["//repo/d228598/**", "//repo/d800716/**"]);
    const index = indexPathRules(rules);
    expect(index.byPrefixHash.size).toBe(1);
    expect(matchingPathRules(index, "/repo/d800716/x")).toEqual([rules[1]]);
    expect(matchingPathRules(index, "/repo/d228598")).toEqual([rules[0]]);
    expect(matchingPathRules(index, "/repo/d228599/x")).toEqual([]);
  });
});
