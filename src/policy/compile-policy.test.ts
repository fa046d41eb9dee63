import { describe, expect, it } from "vitest";
import { compilePolicy, type PolicyOptions } from "./compile-policy.js";
import { NO_DEFAULTS } from "./defaults/read-only-defaults.js";
import type { EvaluateOptions, PolicyRule } from "./policy-types.js";

const cwd = "/repo";
const homeDir = "/home/me";

function policy(rules: Partial<Record<"allow" | "ask" | "deny", string[]>>, extra: Partial<PolicyOptions> = {}) {
  const list: PolicyRule[] = [];
  for (const behavior of ["allow", "ask", "deny"] as const) {
    for (const rule of rules[behavior] ?? []) list.push({ rule, behavior });
  }
  return compilePolicy({ rules: list, cwd, homeDir, ...extra });
}
const bash = (command: string) => ({ tool: "Bash", input: { command } });
const decide = (p: ReturnType<typeof policy>, call: { tool: string; input: unknown }, options?: EvaluateOptions) =>
  p.evaluate(call, options).behavior;

describe("shell commands in any shape", () => {
  it("an argv array is decided as the command a process would run", () => {
    const p = policy({ deny: ["Bash(rm *)"] });
    for (const tool of ["Bash", "bash", "shell", "run_shell_command"]) {
      expect(p.evaluate({ tool, input: { command: ["rm", "-rf", "v"] } }), tool).toMatchObject({
        behavior: "deny",
        rule: "Bash(rm *)",
      });
    }
    expect(p.evaluate({ tool: "shell", input: { cmd: ["rm", "-rf", "v"] } })).toMatchObject({
      behavior: "deny",
      rule: "Bash(rm *)",
    });
    // a script handed to a shell in an argv: its denied command is found inside
    expect(
      p.evaluate({ tool: "Bash", input: { command: ["bash", "-c", "rm -rf v"] } }, { interactive: false }),
    ).toMatchObject({ behavior: "deny" });
  });

  it("what toolgate cannot read is denied (source validation), whatever the rules, grants and mode allow", () => {
    const p = policy({ allow: ["Bash"] });
    for (const input of [
      { command: "rm\u0000 -rf w; echo done" },
      { command: "rm\r -rf w" },
      { command: 42 },
      { command: { program: "rm" } },
      { command: ["rm", 1] },
      { command: [] },
      {},
      { command: "ls", cmd: "rm -rf w" },
    ]) {
      for (const mode of ["default", "bypassPermissions"] as const) {
        expect(p.evaluate({ tool: "Bash", input }, { mode, grants: ["Bash"] }), JSON.stringify(input)).toMatchObject({
          behavior: "deny",
          source: "toolgate",
          denialSource: "validation",
          reason: expect.stringContaining("toolgate cannot read the command of this shell call"),
        });
      }
    }
  });
});

describe("shell commands", () => {
  it("denies when any subcommand is denied, even behind wrappers, env prefixes and substitutions", () => {
    const p = policy({ deny: ["Bash(rm *)"], allow: ["Bash(echo *)"] });
    for (const command of [
      "rm -rf x",
      "echo a && rm x",
      "echo ok\nrm -rf /",
      "FOO=1 rm x",
      "timeout 5 rm x",
      "nohup nice -n 5 rm x",
      "echo $(rm x)",
      "echo `rm x`",
      "(cd /tmp && rm x)",
      "find . | xargs rm",
    ]) {
      expect(p.evaluate(bash(command)), command).toMatchObject({
        behavior: "deny",
        rule: "Bash(rm *)",
        denialSource: "rule",
      });
    }
  });
  it("allows only when every subcommand is covered", () => {
    const p = policy({ allow: ["Bash(zzfake run *)"] });
    expect(decide(p, bash("zzfake run a && zzfake run b"))).toBe("allow");
    expect(decide(p, bash("zzfake run a && ls"))).toBe("allow");
    expect(decide(p, bash("zzfake run a && zzother"))).toBe("ask");
    expect(p.evaluate(bash("zzfake run a | zzother")).reason).toContain("zzother");
  });
  it("turns a denied command inside bash -c into an ask", () => {
    const p = policy({ deny: ["Bash(rm *)"] });
    expect(p.evaluate(bash(`bash -c "rm -rf x"`))).toMatchObject({ behavior: "ask", rule: "Bash(rm *)" });
    expect(p.evaluate(bash(`sh -c 'echo hi'`)).behavior).toBe("ask");
  });
  it("never allows a command it cannot parse, but still denies", () => {
    const p = policy({ allow: ["Bash"], deny: ["Bash(rm *)"] });
    expect(decide(p, bash(`echo "unclosed`))).toBe("ask");
    expect(decide(p, bash(`rm "unclosed`))).toBe("deny");
  });
  it("applies Read and Edit deny rules to file readers and writers", () => {
    const p = policy({ deny: ["Read(./secret.env)", "Edit(/docs/**)"] });
    expect(decide(p, bash("cat secret.env"))).toBe("deny");
    expect(decide(p, bash("tail -n 5 sub/secret.env"))).toBe("deny");
    expect(decide(p, bash("grep -r key secret.env"))).toBe("deny");
    expect(decide(p, bash("cp secret.env /tmp/x"))).toBe("deny");
    expect(decide(p, bash("cat < secret.env"))).toBe("deny");
    expect(decide(p, bash("echo hi > docs/x.md"))).toBe("deny");
    expect(decide(p, bash("touch docs/new.md"))).toBe("deny");
    expect(decide(p, bash("cat readme.md"))).toBe("allow");
    expect(decide(p, bash(`python3 -c "open('secret.env')"`))).toBe("ask");
    expect(p.evaluate(bash("cat sec*"))).toMatchObject({ behavior: "ask", rule: "Read(./secret.env)" });
    expect(decide(p, bash("ls *.md"))).toBe("allow");
    expect(decide(p, bash("cat secret.e?v"))).toBe("ask");
    expect(decide(p, bash("echo x > docs/*.md"))).toBe("deny");
    expect(decide(policy({}), bash("ls *.md"))).toBe("allow");
    expect(decide(p, bash("cat $DIR/x"))).toBe("ask");
    expect(p.evaluate(bash("cat sub/../secret.env")).reason).toContain("'..'");
    expect(decide(p, bash("cat sub/../secret.env"))).toBe("ask");
    expect(decide(policy({}), bash("cat ../x"))).toBe("ask");
    expect(decide(policy({}), bash("cat $HOME/.ssh/id_rsa"))).toBe("ask");
    expect(decide(policy({}), bash("echo $(whoami)"))).toBe("ask");
    expect(decide(policy({}), bash("echo $HOME"))).toBe("allow");
  });
  it("never reads a program named after an Object.prototype member as a table entry", () => {
    const p = policy({ deny: ["Edit(/docs/**)"] });
    for (const program of ["hasOwnProperty", "constructor", "toString", "valueOf", "__proto__", "isPrototypeOf"]) {
      // not a read-only command (it would be allowed by default), not a file writer (Edit rules would deny it)
      expect(decide(p, bash(`${program} x`)), program).toBe("ask");
      expect(decide(p, bash(`${program} docs/a.md`)), program).toBe("ask");
    }
  });

  it("treats read-only commands inside the working directories as allowed by default", () => {
    const p = policy({});
    for (const command of [
      "ls -la",
      "git status",
      "git log --oneline | head -5",
      "cat src/a.ts",
      "grep -rn foo src",
      "pwd",
    ]) {
      expect(p.evaluate(bash(command)), command).toMatchObject({ behavior: "allow", source: "default" });
    }
    for (const command of [
      "cat /etc/passwd",
      "ls ~",
      "rm a",
      "echo hi > out.txt",
      "sed -i s/a/b/ f",
      "find . -delete",
      "git push",
      "git branch new",
      "cd sub && git status",
    ]) {
      expect(decide(p, bash(command)), command).toBe("ask");
    }
    expect(decide(policy({}, { additionalDirectories: ["/data"] }), bash("cat /data/x"))).toBe("allow");
    expect(decide(policy({}, { defaults: NO_DEFAULTS }), bash("ls"))).toBe("ask");
  });
  it("matches parameter rules on top-level scalar fields only", () => {
    const p = policy({ deny: ["Bash(run_in_background:true)"] });
    expect(decide(p, { tool: "Bash", input: { command: "ls", run_in_background: true } })).toBe("deny");
    expect(decide(p, { tool: "Bash", input: { command: "ls" } })).toBe("allow");
  });
});

describe("file, web and MCP tools", () => {
  it("Edit rules cover every editing tool", () => {
    const p = policy({ deny: ["Edit(/docs/**)"] });
    for (const tool of ["Edit", "Write", "MultiEdit", "NotebookEdit", "write", "edit"]) {
      expect(decide(p, { tool, input: { file_path: "/repo/docs/a.md", filePath: "/repo/docs/a.md" } }), tool).toBe(
        "deny",
      );
    }
    expect(decide(p, { tool: "Read", input: { file_path: "/repo/docs/a.md" } })).toBe("allow");
  });
  it("Read rules cover search tools on the denied directory itself", () => {
    const p = policy({ deny: ["Read(src/**)", "Read(//etc)"] });
    expect(decide(p, { tool: "Grep", input: { pattern: "x", path: "/repo/src" } })).toBe("deny");
    expect(decide(p, { tool: "Glob", input: { pattern: "*.ts", path: "/repo/src/a" } })).toBe("deny");
    expect(decide(p, { tool: "LS", input: { path: "/etc" } })).toBe("deny");
    expect(decide(p, { tool: "Grep", input: { pattern: "x", path: "/repo/srcx" } })).toBe("allow");
  });
  it("reads inside the working directories are allowed, outside they ask", () => {
    const p = policy({});
    expect(decide(p, { tool: "Read", input: { file_path: "/repo/a" } })).toBe("allow");
    expect(decide(p, { tool: "Read", input: { file_path: "a/b.txt" } })).toBe("allow");
    expect(decide(p, { tool: "Read", input: { file_path: "/repo/../etc/passwd" } })).toBe("ask");
    expect(decide(p, { tool: "Grep", input: { pattern: "x" } })).toBe("allow");
  });
  it("WebFetch domain rules and MCP server rules", () => {
    const p = policy({ allow: ["WebFetch(domain:docs.example.com)", "mcp__github"], deny: ["mcp__evil__*"] });
    expect(decide(p, { tool: "WebFetch", input: { url: "https://DOCS.example.com./x" } })).toBe("allow");
    expect(decide(p, { tool: "WebFetch", input: { url: "https://example.com" } })).toBe("ask");
    expect(decide(p, { tool: "mcp__github__create_issue", input: {} })).toBe("allow");
    expect(p.evaluate({ tool: "mcp__evil__x", input: {} })).toMatchObject({ behavior: "deny", removesTool: true });
  });
  it("Task rules match the subagent type", () => {
    const p = policy({ deny: ["Task(Explore)"], allow: ["Agent(code-*)"] });
    expect(decide(p, { tool: "Task", input: { subagent_type: "Explore", prompt: "x" } })).toBe("deny");
    expect(decide(p, { tool: "Task", input: { subagent_type: "general", prompt: "x" } })).toBe("allow");
    expect(decide(p, { tool: "Agent", input: { subagent_type: "code-reviewer" } })).toBe("allow");
  });
  it("sed -i writes its files", () => {
    const p = policy({ deny: ["Edit(/docs/**)"] });
    expect(decide(p, bash("sed -i s/a/b/ docs/x.md"))).toBe("deny");
    expect(decide(p, bash("sed -n 1p docs/x.md"))).toBe("allow");
  });
  it("reports ignored rules", () => {
    const p = policy({ allow: ["*", "Bash(run_in_background:true)"], deny: ["Bash(command:rm *)"] });
    expect(p.warnings.map((warning) => warning.code)).toEqual(["RULE_IGNORED", "RULE_IGNORED", "RULE_IGNORED"]);
    expect(decide(p, bash("rm x"))).toBe("ask");
  });
});

describe("modes", () => {
  const p = policy({ allow: ["Bash(zzfake *)"], ask: ["Bash(zzask *)"], deny: ["Bash(zzdeny *)"] });
  const table: [EvaluateOptions["mode"], string, string, string?][] = [
    ["default", "zzother", "ask"],
    ["default", "zzfake a", "allow"],
    ["acceptEdits", "touch a.txt", "allow"],
    ["acceptEdits", "touch /elsewhere/a.txt", "ask"],
    ["default", "touch a.txt", "ask"],
    ["dontAsk", "zzother", "deny", "mode"],
    ["dontAsk", "zzask x", "deny", "mode"],
    ["dontAsk", "zzfake a", "allow"],
    ["plan", "zzother", "deny", "mode"],
    ["plan", "touch a.txt", "deny", "mode"],
    ["plan", "zzfake a", "allow"],
    ["acceptEdits", "rm old.txt", "allow"],
    ["acceptEdits", "sed -i s/a/b/ f.txt", "allow"],
    ["acceptEdits", "echo x > b.txt", "allow"],
    ["acceptEdits", "echo x > /elsewhere/b.txt", "ask"],
    ["acceptEdits", "tee c.txt", "ask"],
    ["acceptEdits", "chmod +x f.txt", "ask"],
    ["plan", "ls", "allow"],
    ["bypassPermissions", "zzother", "allow"],
    ["bypassPermissions", "zzask x", "ask"],
    ["bypassPermissions", "zzdeny x", "deny", "rule"],
    ["bypassPermissions", "rm -rf /", "ask"],
  ];
  for (const [mode, command, behavior, denialSource] of table) {
    it(`${mode}: ${command} -> ${behavior}`, () => {
      const decision = p.evaluate(bash(command), { mode });
      expect(decision.behavior).toBe(behavior);
      if (denialSource !== undefined) expect(decision.denialSource).toBe(denialSource);
    });
  }
  it("edits inside the working directories are allowed in acceptEdits", () => {
    const call = { tool: "Write", input: { file_path: "/repo/a.txt", content: "" } };
    expect(p.evaluate(call, { mode: "acceptEdits" }).behavior).toBe("allow");
    expect(p.evaluate(call).behavior).toBe("ask");
  });
  it("headless: an ask becomes a deny with denialSource headless", () => {
    expect(p.evaluate(bash("zzother"), { interactive: false })).toMatchObject({
      behavior: "deny",
      denialSource: "headless",
    });
    expect(p.evaluate(bash("zzask x"), { interactive: false })).toMatchObject({
      behavior: "deny",
      denialSource: "headless",
      rule: "Bash(zzask *)",
    });
    expect(p.evaluate(bash("zzfake x"), { interactive: false }).behavior).toBe("allow");
  });
  it("uses the configured default mode", () => {
    const strict = policy({}, { defaultMode: "dontAsk" });
    expect(strict.evaluate(bash("zzother")).denialSource).toBe("mode");
  });
});

describe("session grants", () => {
  const p = policy({ deny: ["Bash(git push *)"], ask: ["Bash(npm publish *)"] }, { neverGrant: ["Bash(rm *)"] });
  it("a grant allows what would ask", () => {
    expect(p.evaluate(bash("npm run test -- -u"), { grants: ["Bash(npm run test *)"] })).toMatchObject({
      behavior: "allow",
      source: "grant",
      rule: "Bash(npm run test *)",
    });
    expect(decide(p, bash("npm publish --tag x"), { grants: ["Bash(npm publish *)"] })).toBe("allow");
  });
  it("a grant never overrides a deny rule", () => {
    expect(decide(p, bash("git push origin main"), { grants: ["Bash", "Bash(git push *)"] })).toBe("deny");
  });
  it("a grant covers a compound command only when it covers every part, or the exact line", () => {
    expect(decide(p, bash("npm test && zzx"), { grants: ["Bash(npm test *)"] })).toBe("ask");
    expect(decide(p, bash("npm test && zzx"), { grants: ["Bash(npm test && zzx)"] })).toBe("allow");
    expect(decide(p, bash("npm test && git push"), { grants: ["Bash(npm test && git push)"] })).toBe("deny");
  });
  it("neverGrant forbids grants for matching calls", () => {
    expect(decide(p, bash("rm -rf build"), { grants: ["Bash(rm -rf build)", "Bash"] })).toBe("ask");
    const files = policy({}, { neverGrant: ["Edit(.env)"] });
    const call = { tool: "Edit", input: { file_path: "/repo/.env" } };
    expect(decide(files, call, { grants: ["Edit(//repo/**)"] })).toBe("ask");
    expect(decide(files, { tool: "Edit", input: { file_path: "/repo/a.ts" } }, { grants: ["Edit(//repo/**)"] })).toBe(
      "allow",
    );
  });
  it("canGrant says whether a grant could help", () => {
    expect(p.canGrant(bash("npm test"))).toBe(true);
    expect(p.canGrant(bash("git push origin"))).toBe(false);
    expect(p.canGrant(bash("rm -rf x"))).toBe(false);
    expect(p.canGrant(bash("echo a && rm x"))).toBe(false);
    expect(p.canGrant({ tool: "mcp__srv__echo", input: {} })).toBe(true);
  });
  it("ignores grants it cannot read", () => {
    expect(decide(p, bash("zzx"), { grants: ["Bash(unclosed"] })).toBe("ask");
  });
});

describe("priorities (imported opencode and Gemini rules)", () => {
  it("a higher priority rule wins regardless of behavior", () => {
    const p = compilePolicy({
      cwd,
      homeDir,
      rules: [
        { rule: "Bash", behavior: "deny", priority: 1 },
        { rule: "Bash(git status *)", behavior: "allow", priority: 2 },
      ],
    });
    expect(decide(p, bash("git status"))).toBe("allow");
    expect(decide(p, bash("ls"))).toBe("deny");
  });
  it("interactive-only and mode-only rules apply only there", () => {
    const p = compilePolicy({
      cwd,
      homeDir,
      rules: [
        { rule: "Bash(zz *)", behavior: "deny", interactive: false },
        { rule: "Bash(yy *)", behavior: "allow", modes: ["acceptEdits"] },
      ],
    });
    expect(decide(p, bash("zz a"), { interactive: false })).toBe("deny");
    expect(p.evaluate(bash("zz a"), { interactive: true }).rule).toBeUndefined();
    expect(decide(p, bash("yy a"), { mode: "acceptEdits" })).toBe("allow");
    expect(decide(p, bash("yy a"))).toBe("ask");
  });
});

describe("tool names (docs/rules.md, Tool names)", () => {
  const mcp = (tool: string) => ({ tool, input: {} });

  it("a deny or ask rule on an MCP tool covers every spelling a case-insensitive server runs; an allow is exact", () => {
    const p = policy({
      allow: ["mcp__github__*", "mcp__box__list"],
      ask: ["mcp__github__merge_pr"],
      deny: ["mcp__github__delete_repo", "mcp__evil", "mcp__box__erase_*"],
    });
    for (const tool of ["mcp__github__DELETE_REPO", "mcp__GitHub__Delete_Repo", "MCP__github__delete_repo"]) {
      expect(p.evaluate(mcp(tool)), tool).toMatchObject({ behavior: "deny", rule: "mcp__github__delete_repo" });
    }
    expect(p.evaluate(mcp("mcp__github__Merge_PR"))).toMatchObject({ behavior: "ask", rule: "mcp__github__merge_pr" });
    expect(p.evaluate(mcp("mcp__EVIL__anything"))).toMatchObject({ behavior: "deny", rule: "mcp__evil" });
    expect(p.evaluate(mcp("mcp__box__ERASE_all"))).toMatchObject({ behavior: "deny", rule: "mcp__box__erase_*" });
    // an allow never widens to another spelling
    expect(decide(p, mcp("mcp__github__create_issue"))).toBe("allow");
    expect(p.evaluate(mcp("mcp__GITHUB__create_issue")).source).toBe("default");
    expect(p.evaluate(mcp("mcp__box__LIST")).source).toBe("default");
    expect(decide(p, mcp("mcp__box__list"))).toBe("allow");
  });

  it("a parameter rule on an MCP tool covers its other spellings too", () => {
    const p = policy({ allow: ["mcp__fs__*"], deny: ["mcp__fs__write(path:/etc/*)"] });
    expect(decide(p, { tool: "mcp__fs__WRITE", input: { path: "/etc/passwd" } })).toBe("deny");
  });

  it("a tool name toolgate cannot read is denied whatever the rules, grants and mode say", () => {
    const p = policy({ allow: ["mcp__github__*", "Bash"] });
    for (const tool of [
      "mcp__github__create_issue\u0000",
      "mcp__github__create_issue ",
      "mcp__github__create\u200b_issue",
      "mcp__github__cr\u0435ate_issue",
      "Bash\u200b",
    ]) {
      const decision = p.evaluate(
        { tool, input: { command: "ls" } },
        { mode: "bypassPermissions", grants: ["mcp__github__create_issue", "Bash"] },
      );
      expect(decision, JSON.stringify(tool)).toMatchObject({ behavior: "deny", denialSource: "validation" });
      expect(decision.reason).toMatch(/cannot read this tool name/);
    }
  });
});

describe("compiled rules", () => {
  it("have one shape whatever their kind: the same fields in the same order", () => {
    const policy = compilePolicy({
      cwd: "/repo",
      homeDir: "/home/dev",
      rules: [
        { rule: "Bash(git status)", behavior: "allow" },
        { rule: "Bash(npm run *)", behavior: "ask" },
        { rule: "Bash(*rm*)", behavior: "deny" },
        { rule: "Read(./.env)", behavior: "deny", reason: "secrets" },
        { rule: "Edit(/src/**)", behavior: "allow", origin: "project settings" },
        { rule: "WebFetch(domain:example.com)", behavior: "allow" },
        { rule: "mcp__server__tool", behavior: "deny" },
        { rule: "Bash", behavior: "ask", interactive: false },
        { rule: "prefix", behavior: "deny", argvPrefix: ["rm", "-rf"] },
      ],
    });
    expect(new Set(policy.rules.map((rule) => rule.kind))).toEqual(
      new Set(["command", "path", "domain", "tool", "argv"]),
    );
    const shapes = new Set(policy.rules.map((rule) => Object.keys(rule).join(",")));
    expect([...shapes]).toHaveLength(1);
  });
});
