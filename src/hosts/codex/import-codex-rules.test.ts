import { describe, expect, it } from "vitest";
import { parseExecpolicyRules } from "./execpolicy-rules.js";
import { importCodexRules } from "./import-codex-rules.js";

describe("importCodexRules", () => {
  it("turns prefix rules into Bash prefix rules, expands alternatives and reports what it cannot express", () => {
    const parsed = parseExecpolicyRules(
      [
        'prefix_rule(pattern = ["rm"], decision = "forbidden")',
        'prefix_rule(pattern = ["git", ["push", "reset"]], decision = "prompt")',
        'prefix_rule(pattern = ["ls"])',
        'prefix_rule(pattern = ["echo", "a b"], decision = "forbidden")',
        'X = ["curl"]',
      ].join("\n"),
      "codex.rules",
    );
    const result = importCodexRules(parsed);
    expect(result.rules).toEqual([
      { rule: "Bash(rm *)", behavior: "deny" },
      { rule: "Bash(git push *)", behavior: "ask" },
      { rule: "Bash(git reset *)", behavior: "ask" },
      { rule: "Bash(ls *)", behavior: "allow" },
    ]);
    expect(result.unsupported.map((item) => item.entry)).toEqual(["codex.rules:5", "codex.rules:4"]);
    expect(result.notes[0]).toMatch(/prompt/);
  });

  it("imports the positional and mixed forms as the keyword form, and reports what it still cannot read", () => {
    const parsed = parseExecpolicyRules(
      [
        'prefix_rule(["rm"], "forbidden")',
        'prefix_rule(["git", ["push", "reset"]], "prompt", [], [], "ask first")',
        'prefix_rule(["curl"], decision = "forbidden")',
        'prefix_rule(["ls"])',
        'prefix_rule(pattern = ["wget"], "forbidden")',
        "prefix_rule(*ARGS)",
      ].join("\n"),
      "codex.rules",
    );
    const result = importCodexRules(parsed);
    expect(result.rules).toEqual([
      { rule: "Bash(rm *)", behavior: "deny" },
      { rule: "Bash(git push *)", behavior: "ask" },
      { rule: "Bash(git reset *)", behavior: "ask" },
      { rule: "Bash(curl *)", behavior: "deny" },
      { rule: "Bash(ls *)", behavior: "allow" },
    ]);
    expect(result.unsupported.map((item) => item.entry)).toEqual(["codex.rules:5", "codex.rules:6"]);
  });
});
