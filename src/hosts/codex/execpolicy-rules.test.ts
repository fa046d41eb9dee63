import { describe, expect, it } from "vitest";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
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
 * Every form Codex's own parser accepts (`codex-rs/execpolicy/src/parser.rs`: `prefix_rule(pattern, decision, match,
 * not_match, justification)`, Starlark arguments), each row checked against `codex execpolicy check` of Codex CLI
 * 0.169.0 (test/e2e's pinned binary): what Codex decides for the command, toolgate reads as the same rule.
 */
describe("parseExecpolicyRules reads every form Codex accepts", () => {
  const read = (line: string) => parseExecpolicyRules(line, "f.rules");
  const forms: {
    form: string;
    rule: string;
    pattern: (string | string[])[];
    decision: string;
    justification?: string;
  }[] = [
    // positional
    { form: "positional", rule: 'prefix_rule(["rm"], "forbidden")', pattern: ["rm"], decision: "forbidden" },
    { form: "positional, default decision", rule: 'prefix_rule(["rm"])', pattern: ["rm"], decision: "allow" },
    {
      form: "positional, all five",
      rule: 'prefix_rule(["rm"], "forbidden", ["rm x"], ["ls"], "why")',
      pattern: ["rm"],
      decision: "forbidden",
      justification: "why",
    },
    {
      form: "positional, empty examples",
      rule: 'prefix_rule(["rm"], "prompt", [], [], "why")',
      pattern: ["rm"],
      decision: "prompt",
      justification: "why",
    },
    {
      form: "positional, trailing comma",
      rule: "prefix_rule(['rm'], 'forbidden',)",
      pattern: ["rm"],
      decision: "forbidden",
    },
    {
      form: "positional over lines",
      rule: 'prefix_rule(\n  ["git", ["push", "fetch"]],\n  "prompt",\n)',
      pattern: ["git", ["push", "fetch"]],
      decision: "prompt",
    },
    // keyword
    {
      form: "keyword",
      rule: 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "no")',
      pattern: ["rm"],
      decision: "forbidden",
      justification: "no",
    },
    {
      form: "keyword, any order",
      rule: 'prefix_rule(justification="no", decision="forbidden", not_match=["ls"], pattern=["rm"], match=[["rm", "x"]])',
      pattern: ["rm"],
      decision: "forbidden",
      justification: "no",
    },
    { form: "keyword, default decision", rule: 'prefix_rule(pattern=["ls"])', pattern: ["ls"], decision: "allow" },
    // mixed
    { form: "mixed", rule: 'prefix_rule(["rm"], decision="forbidden")', pattern: ["rm"], decision: "forbidden" },
    {
      form: "mixed, justification and match by name",
      rule: 'prefix_rule(["rm"], "forbidden", justification="why", match=["rm a"])',
      pattern: ["rm"],
      decision: "forbidden",
      justification: "why",
    },
    // values
    {
      form: "a one-word alternative is the word",
      rule: 'prefix_rule(["git", ["push"]], "forbidden")',
      pattern: ["git", "push"],
      decision: "forbidden",
    },
    { form: "parentheses", rule: 'prefix_rule((["x"]), ("forbidden"))', pattern: ["x"], decision: "forbidden" },
    {
      form: "+ between strings and lists",
      rule: 'prefix_rule(["x"] + ["y"], "forb" + "idden", justification = "a" + "b")',
      pattern: ["x", "y"],
      decision: "forbidden",
      justification: "ab",
    },
    { form: "triple quotes", rule: "prefix_rule(['x'], '''forbidden''')", pattern: ["x"], decision: "forbidden" },
    { form: "raw and f-strings", rule: 'prefix_rule([r"rm"], f"forbidden")', pattern: ["rm"], decision: "forbidden" },
    {
      form: "escapes",
      rule: 'prefix_rule(["\\x72m", "\\101", "\\u00e9", "r\\d", r"a\\n"], "forbidden", justification=f"a{{b}}")',
      pattern: ["rm", "A", "é", "r\\d", "a\\n"],
      decision: "forbidden",
      justification: "a{b}",
    },
    { form: "a joined string", rule: 'prefix_rule(["a\\\nb"], "forbidden")', pattern: ["ab"], decision: "forbidden" },
  ];
  for (const { form, rule, pattern, decision, justification } of forms) {
    it(form, () => {
      const parsed = read(rule);
      expect(parsed.problems).toEqual([]);
      expect(parsed.rules).toEqual([
        { pattern, decision, source: "f.rules:1", ...(justification === undefined ? {} : { justification }) },
      ]);
    });
  }

  it("reads statements separated by ; and a rule after a multi-line statement it does not understand", () => {
    const parsed = read(
      'prefix_rule(["rm"], "forbidden"); prefix_rule(["ls"], "forbidden")\nT = [\n  "a",\n]\nprefix_rule(["cp"], "prompt")',
    );
    expect(parsed.rules.map((rule) => rule.pattern)).toEqual([["rm"], ["ls"], ["cp"]]);
    expect(parsed.problems.map((problem) => problem.source)).toEqual(["f.rules:2"]);
  });

  it("reads host_executable(...) without a problem (toolgate resolves absolute paths at least as strictly)", () => {
    const parsed = read('host_executable(name = "rm", paths = ["/usr/bin/rm"])\nprefix_rule(["rm"], "forbidden")');
    expect(parsed.problems).toEqual([]);
    expect(parsed.rules.map((rule) => rule.pattern)).toEqual([["rm"]]);
  });

  it("the positional form decides first, as the keyword form does", () => {
    const policy = compilePolicy({
      rules: execpolicyPolicyRules(read('prefix_rule(["rm"], "forbidden")')).rules,
      cwd: "/work",
      homeDir: "/home/u",
      defaults: NO_DEFAULTS,
    });
    expect(policy.evaluate({ tool: "Bash", input: { command: "rm -rf v" } }).behavior).toBe("deny");
  });

  // what Codex refuses (its parser fails the file) or toolgate cannot evaluate: a problem, never a rule
  const refused: [string, RegExp][] = [
    ['prefix_rule(pattern=["rm"], "forbidden")', /positional arguments before keyword/],
    ['prefix_rule(["rm"], "forbidden", "why")', /match examples/],
    ['prefix_rule(["rm"], "forbidden", pattern=["ls"])', /pattern given once/],
    ['prefix_rule(["rm"], "forbidden", foo=1)', /known arguments/],
    ['prefix_rule(["rm"], "forbidden", [], [], "why", 1)', /at most 5 arguments/],
    ['prefix_rule(("rm",), "forbidden")', /not a tuple/],
    ['prefix_rule(["git", ("push", "fetch")], "forbidden")', /not a tuple/],
    ['prefix_rule(["rm"], "Forbidden")', /"Forbidden"/],
    ['prefix_rule(["rm"], None)', /not the name None/],
    ['prefix_rule(["rm"], "forbidden", justification="  ")', /non-empty/],
    ['prefix_rule([], "forbidden")', /non-empty pattern/],
    ['prefix_rule(["rm", []], "forbidden")', /non-empty lists of alternatives/],
    ['prefix_rule(["rm", [["a"]]], "forbidden")', /alternatives that are strings/],
    ['prefix_rule(*[["rm"], "forbidden"])', /not \*args/],
    ['prefix_rule(**{"pattern": ["rm"]})', /not \*args/],
    ['prefix_rule([b"rm"], "forbidden")', /not b"..."/],
    ['prefix_rule(["rm"], "forbidden", justification=f"{x}")', /without placeholders/],
    ['prefix_rule(["rm"] + "x", "forbidden")', /`\+` between two strings or two lists/],
    ['prefix_rule(r"rm".split(), "forbidden")', /computed with \./],
    ['prefix_rule(["rm"], "forbidden" if True else "allow")', /computed with if/],
  ];
  for (const [rule, message] of refused) {
    it(`reports ${rule}`, () => {
      const parsed = read(rule);
      expect(parsed.rules).toEqual([]);
      expect(parsed.problems).toHaveLength(1);
      expect(parsed.problems[0]?.message).toMatch(message);
    });
  }
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

  it("resolves an absolute program path to its name for a refusal, as Codex does, and never for an allow", () => {
    expect(decide("/bin/rm -rf x").behavior).toBe("deny");
    expect(decide("/usr/bin/git push origin").behavior).toBe("ask");
    expect(decide("ls -la").behavior).toBe("allow");
    expect(decide("/tmp/elsewhere/ls -la").source).toBe("default");
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
