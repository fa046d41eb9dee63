import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
import { importGeminiPolicy } from "./gemini-policy-import.js";

/**
 * Gemini CLI's evaluation (policy-engine.ts, as studied): rules sorted by tier + priority/1000 (stable), the first
 * match wins; `commandPrefix "p"` matches `p` followed by whitespace or the end; no match asks (interactive).
 */
interface GeminiRule {
  commandPrefix?: string;
  decision: "allow" | "deny" | "ask_user";
  priority: number;
}

function geminiEvaluate(rules: GeminiRule[], tier: number, command: string): string {
  const sorted = rules
    .map((rule, index) => ({ rule, index, effective: tier + rule.priority / 1000 }))
    .sort((a, b) => b.effective - a.effective || a.index - b.index);
  for (const { rule } of sorted) {
    const prefix = rule.commandPrefix;
    if (prefix === undefined || command === prefix || command.startsWith(`${prefix} `)) {
      return rule.decision === "ask_user" ? "ask" : rule.decision;
    }
  }
  return "ask";
}

const word = fc.constantFrom("git", "push", "status", "npm", "test", "rm", "-rf");
const command = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(" "));
const rule: fc.Arbitrary<GeminiRule> = fc.record(
  {
    commandPrefix: command,
    decision: fc.constantFrom("allow", "deny", "ask_user"),
    priority: fc.constantFrom(0, 10, 100, 999),
  },
  { requiredKeys: ["decision", "priority"] },
);

describe("importGeminiPolicy", () => {
  it("decides every shell command as Gemini's priority order does", () => {
    fc.assert(
      fc.property(
        fc.array(rule, { maxLength: 6 }),
        fc.constantFrom("workspace", "user") as fc.Arbitrary<"workspace" | "user">,
        command,
        (rules, tier, text) => {
          const tables = rules.map((entry) => ({ toolName: "run_shell_command", ...entry }));
          const imported = importGeminiPolicy({ rule: tables }, { tier, file: "p.toml" });
          const policy = compilePolicy({
            rules: imported.rules,
            cwd: "/repo",
            homeDir: "/home/me",
            defaults: NO_DEFAULTS,
          });
          const decision = policy.evaluate({ tool: "run_shell_command", input: { command: text } });
          expect(decision.behavior).toBe(geminiEvaluate(rules, tier === "user" ? 4 : 3, text));
        },
      ),
      { numRuns: 3000 },
    );
  });
  it("reports conditions it cannot express", () => {
    const result = importGeminiPolicy(
      { rule: [{ toolName: "run_shell_command", commandRegex: "rm .*", decision: "deny" }, { decision: "allow" }] },
      { tier: "user", file: "p.toml" },
    );
    expect(result.rules).toEqual([]);
    expect(result.unsupported.map((item) => item.reason)).toEqual([
      expect.stringContaining("commandRegex"),
      expect.stringContaining("allow for every tool"),
    ]);
  });
});
