import { describe, expect, it } from "vitest";
import { commandArgvs } from "./command-argvs.js";
import { describeExecpolicyRule, matchExecpolicy, parseExecpolicyRules } from "./execpolicy-rules.js";

describe("parseExecpolicyRules", () => {
  it("reads literal prefix_rule calls with alternatives, decisions, justifications and examples", () => {
    const parsed = parseExecpolicyRules(
      [
        "# comment",
        'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "no rm")',
        "prefix_rule(",
        '    pattern = ["git", ["push", "pull"]],',
        "    decision = 'prompt',",
        '    match = [["git", "push"]], not_match = [["git", "status"]],',
        ")",
        'prefix_rule(pattern=["ls"])  # allow by default',
      ].join("\n"),
      "user.rules",
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.rules).toEqual([
      { pattern: ["rm"], decision: "forbidden", justification: "no rm", source: "user.rules:2" },
      { pattern: ["git", ["push", "pull"]], decision: "prompt", source: "user.rules:3" },
      { pattern: ["ls"], decision: "allow", source: "user.rules:8" },
    ]);
  });

  it("reports every form it does not understand, with its line, and never turns it into a rule", () => {
    const parsed = parseExecpolicyRules(
      [
        'T = "touch"',
        'prefix_rule(pattern = [T], decision = "forbidden")',
        'load("//x.star", "y")',
        'prefix_rule(pattern = ["rm"], decision = "deny")',
        'prefix_rule(pattern = ["curl"], decision = "forbidden", when = True)',
        'prefix_rule(pattern = ["ok"], decision = "forbidden")',
      ].join("\n"),
      "odd.rules",
    );
    expect(parsed.rules.map((rule) => rule.pattern)).toEqual([["ok"]]);
    expect(parsed.problems.map((problem) => problem.source)).toEqual([
      "odd.rules:1",
      "odd.rules:2",
      "odd.rules:3",
      "odd.rules:4",
      "odd.rules:5",
    ]);
    expect(parsed.problems[1]?.message).toMatch(/string literals/);
    expect(parsed.problems[3]?.message).toMatch(/"deny"/);
  });

  it("reports an unclosed string", () => {
    const parsed = parseExecpolicyRules('prefix_rule(pattern = ["rm], decision = "forbidden")', "bad.rules");
    expect(parsed.rules).toEqual([]);
    expect(parsed.problems[0]).toMatchObject({ source: "bad.rules:1", message: "a string is not closed" });
  });
});

describe("matchExecpolicy", () => {
  const { rules } = parseExecpolicyRules(
    [
      'prefix_rule(pattern = ["rm"], decision = "prompt")',
      'prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden")',
      'prefix_rule(pattern = ["git", ["push", "reset"]], decision = "prompt")',
    ].join("\n"),
    "t.rules",
  );

  it("picks the strictest matching rule over every simple command of the script", () => {
    expect(matchExecpolicy(rules, commandArgvs("rm -rf victim"))?.decision).toBe("forbidden");
    expect(matchExecpolicy(rules, commandArgvs("rm victim"))?.decision).toBe("prompt");
    expect(matchExecpolicy(rules, commandArgvs("echo hi && rm -rf x"))?.decision).toBe("forbidden");
    expect(matchExecpolicy(rules, commandArgvs("git push origin"))?.decision).toBe("prompt");
    expect(matchExecpolicy(rules, commandArgvs("git status"))).toBeUndefined();
    expect(matchExecpolicy(rules, commandArgvs("echo rm"))).toBeUndefined();
  });

  it("describes a rule as written", () => {
    expect(describeExecpolicyRule(rules[1] as never)).toBe('prefix_rule(pattern=["rm","-rf"], decision="forbidden")');
  });
});
