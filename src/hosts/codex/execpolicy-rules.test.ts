import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/claude-code-defaults.js";
import { parseShellCommand } from "../../policy/shell/parse-shell-command.js";
import {
  describeExecpolicyRule,
  type ExecpolicyRule,
  execpolicyPolicyRules,
  parseExecpolicyRules,
} from "./execpolicy-rules.js";

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

/**
 * Codex's matching, as toolgate's hook once did it beside the policy (the reference): the strictest rule whose pattern
 * is a prefix of the argv of any simple command of the script, or of the whole `bash -lc <script>` argv.
 */
function codexDecision(rules: readonly ExecpolicyRule[], command: string): string | undefined {
  const argvs = parseShellCommand(command).commands.map((simple) => simple.words.map((word) => word.value));
  argvs.push(["/bin/bash", "-lc", command], ["bash", "-lc", command]);
  const rank = { allow: 0, prompt: 1, forbidden: 2 };
  let found: ExecpolicyRule | undefined;
  for (const argv of argvs) {
    for (const rule of rules) {
      const matches =
        argv.length >= rule.pattern.length &&
        rule.pattern.every((part, index) =>
          typeof part === "string" ? part === argv[index] : part.includes(argv[index] as string),
        );
      if (matches && (found === undefined || rank[rule.decision] > rank[found.decision])) found = rule;
    }
  }
  return found?.decision;
}

describe("Codex's rules as policy rules (execpolicyPolicyRules)", () => {
  const parsed = parseExecpolicyRules(
    [
      'prefix_rule(pattern = ["rm"], decision = "prompt")',
      'prefix_rule(pattern = ["rm", "-rf"], decision = "forbidden", justification = "no rm -rf")',
      'prefix_rule(pattern = ["git", ["push", "reset"]], decision = "prompt")',
      'prefix_rule(pattern = ["ls"], decision = "allow")',
      'prefix_rule(pattern = ["bash", "-lc", "make deploy"], decision = "forbidden")',
      'prefix_rule(pattern = ["a b"], decision = "forbidden")',
    ].join("\n"),
    "t.rules",
  );
  const policy = compilePolicy({
    rules: execpolicyPolicyRules(parsed).rules,
    cwd: "/work",
    homeDir: "/home/u",
    defaults: NO_DEFAULTS,
  });
  const BEHAVIOR: Record<string, string> = { forbidden: "deny", prompt: "ask", allow: "allow" };
  const decide = (command: string) => policy.evaluate({ tool: "Bash", input: { command } });

  it("decides every command as Codex's strictest-prefix matching does", () => {
    const commands = [
      "rm -rf victim",
      "rm victim",
      "rm",
      "rmdir x",
      "echo rm",
      "echo hi && rm -rf x",
      "ls -la; rm x",
      "git push origin",
      "git reset --hard",
      "git status",
      "ls -la",
      "ls && git status",
      '"rm" -rf x',
      "'a b' c",
      "a b c",
      "make deploy",
      "make deploy now",
      "cat x | rm -rf y",
    ];
    for (const command of commands) {
      const expected = codexDecision(parsed.rules, command);
      const decision = decide(command);
      if (expected === undefined || expected === "allow") {
        // nothing Codex refuses: no deny or ask from Codex's rules (an allow needs every part allowed)
        expect([undefined, "allow"], command).toContain(decision.source === "default" ? undefined : decision.behavior);
      } else {
        expect(decision.behavior, command).toBe(BEHAVIOR[expected]);
      }
    }
    expect(decide("ls -la").behavior).toBe("allow");
  });

  it("applies to each of Codex's shell tools, whatever field holds the command", () => {
    for (const tool of ["Bash", "exec_command", "shell", "local_shell", "shell_command", "container.exec"]) {
      expect(policy.evaluate({ tool, input: { cmd: "rm -rf x" } }).behavior, tool).toBe("deny");
      expect(policy.evaluate({ tool, input: { command: ["bash", "-lc", "rm -rf x"] } }).behavior, tool).toBe("deny");
    }
  });

  it("matches a wrapped command too (stricter than Codex for a refusal, never looser)", () => {
    expect(decide("timeout 5 rm -rf x").behavior).toBe("deny");
    expect(decide("FOO=1 rm -rf x").behavior).toBe("deny");
    expect(decide("bash -lc 'rm -rf x'").behavior).toBe("deny");
  });

  it("names the Codex rule and its file, in Codex's words, and keeps the justification", () => {
    expect(decide("rm -rf x")).toMatchObject({
      behavior: "deny",
      rule: 'prefix_rule(pattern=["rm","-rf"], decision="forbidden")',
      reason:
        'Codex\'s rule prefix_rule(pattern=["rm","-rf"], decision="forbidden") (t.rules:2) forbids this command: no rm -rf.',
    });
  });

  it("describes a rule as written", () => {
    expect(describeExecpolicyRule(parsed.rules[1] as never)).toBe(
      'prefix_rule(pattern=["rm","-rf"], decision="forbidden")',
    );
  });
});
