import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePolicy } from "../compile-policy.js";
import type { PolicyRule } from "../policy-types.js";

/**
 * Invariant 1: nothing but an explicit human grant turns a deny into an allow, and grants never override an explicit
 * deny rule. Generated rule sets, grant sequences, modes and calls: a call matched by a deny rule is never allowed.
 */
const words = fc.constantFrom("git", "push", "rm", "-rf", "npm", "test", "ls", "x", "main", "run", "cat", ".env");
const command = fc.array(words, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(" "));
const separator = fc.constantFrom(" && ", " | ", "; ", "\n", " || ");
const shellLine = fc
  .tuple(
    command,
    fc.option(fc.tuple(separator, command), { nil: undefined }),
    fc.constantFrom("", "FOO=1 ", "timeout 5 "),
  )
  .map(([first, rest, prefix]) => `${prefix}${first}${rest === undefined ? "" : rest[0] + rest[1]}`);
const bashRule = fc
  .tuple(command, fc.constantFrom("", " *", ":*", "*"))
  .map(([text, suffix]) => `Bash(${text}${suffix})`);
const pathRule = fc.constantFrom("Read(.env)", "Edit(/src/**)", "Read(//etc/**)", "Edit(x)", "Read(~/.ssh/**)");
const anyRule = fc.oneof(bashRule, pathRule, fc.constantFrom("Bash", "Read", "mcp__srv", "WebFetch(domain:*.x.com)"));
const call = fc.oneof(
  shellLine.map((text) => ({ tool: "Bash", input: { command: text } })),
  fc
    .constantFrom("/repo/.env", "/repo/src/a.ts", "/etc/passwd", "/home/me/.ssh/id", "/repo/x")
    .chain((path) => fc.constantFrom("Read", "Edit", "Write").map((tool) => ({ tool, input: { file_path: path } }))),
  fc.constantFrom("https://a.x.com/", "https://x.com/").map((url) => ({ tool: "WebFetch", input: { url } })),
  fc.constant({ tool: "mcp__srv__echo", input: {} }),
);

describe("grant safety", () => {
  it("no rule set, grant sequence, mode or call lets a denied call through", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(anyRule, fc.constantFrom("allow", "ask", "deny")), { maxLength: 6 }),
        fc.array(
          fc.oneof(
            anyRule,
            shellLine.map((text) => `Bash(${text})`),
          ),
          { maxLength: 6 },
        ),
        fc.constantFrom("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"),
        fc.boolean(),
        call,
        (ruleSpecs, grants, mode, interactive, toolCall) => {
          const rules: PolicyRule[] = ruleSpecs.map(([rule, behavior]) => ({
            rule,
            behavior: behavior as PolicyRule["behavior"],
          }));
          const policy = compilePolicy({ rules, cwd: "/repo", homeDir: "/home/me" });
          const denyOnly = compilePolicy({
            rules: rules.filter((rule) => rule.behavior === "deny"),
            cwd: "/repo",
            homeDir: "/home/me",
          });
          const deniedByRule = denyOnly.evaluate(toolCall).denialSource === "rule";
          const decision = policy.evaluate(toolCall, { mode, interactive, grants });
          if (deniedByRule) {
            expect(decision.behavior).toBe("deny");
            expect(decision.source).not.toBe("grant");
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
