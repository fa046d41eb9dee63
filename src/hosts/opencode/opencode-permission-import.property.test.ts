import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
import { importOpencodePermission } from "./opencode-permission-import.js";

/**
 * opencode's own evaluation (permission/next.ts, as studied): the last rule whose pattern matches wins; `*` matches
 * any run, a trailing " *" is optional; no match asks. The imported rules must decide every command the same way.
 */
function opencodeWildcard(pattern: string, value: string): boolean {
  let body = pattern.replace(/[.+^${}()|[\]\\?]/g, "\\$&").replace(/\*/g, ".*");
  if (body.endsWith(" .*")) body = `${body.slice(0, -3)}( .*)?`;
  return new RegExp(`^${body}$`, "s").test(value);
}

function opencodeEvaluate(rules: [string, string][], command: string): string {
  const match = rules.findLast(([pattern]) => opencodeWildcard(pattern, command));
  return match?.[1] ?? "ask";
}

const word = fc.constantFrom("git", "push", "status", "npm", "run", "test", "rm", "-rf", "x");
const command = fc.array(word, { minLength: 1, maxLength: 4 }).map((words) => words.join(" "));
const pattern = fc.oneof(
  fc.constant("*"),
  command,
  command.map((text) => `${text} *`),
  command.map((text) => `${text}*`),
  command.map((text) => `* ${text}`),
);
const action = fc.constantFrom("allow", "ask", "deny");

describe("importOpencodePermission", () => {
  it("decides every command as opencode's last-match-wins evaluation does", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(pattern, action), { selector: ([p]) => p, maxLength: 6 }),
        command,
        (rules, text) => {
          const imported = importOpencodePermission({ bash: Object.fromEntries(rules) });
          const policy = compilePolicy({
            rules: imported.rules,
            cwd: "/repo",
            homeDir: "/home/me",
            defaults: NO_DEFAULTS,
          });
          const decision = policy.evaluate({ tool: "bash", input: { command: text } });
          expect(decision.behavior).toBe(opencodeEvaluate(rules, text));
        },
      ),
      { numRuns: 3000 },
    );
  });
  it("reports what it cannot express", () => {
    const result = importOpencodePermission({ bash: { "rm ?": "deny" }, doom_loop: "ask", "*": "allow" });
    expect(result.unsupported.map((item) => item.entry)).toEqual(["bash.rm ?", "doom_loop", "*"]);
  });
});
