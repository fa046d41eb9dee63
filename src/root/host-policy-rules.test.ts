import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { hostPolicyRules } from "./host-policy-rules.js";
import { loadToolgateSetup } from "./load-toolgate-setup.js";

const DENY_RM = `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandPrefix = "rm"
decision = "deny"
priority = 200

[[rule]]
toolName = "run_shell_command"
commandPrefix = "git push"
decision = "ask_user"
priority = 200
`;

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), "toolgate-gemini-policy-"));
  project = join(home, "project");
  mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const shell = (command: string) => ({ tool: "run_shell_command", input: { command } });

describe("hostPolicyRules", () => {
  it("reads nothing for hosts without policy files of their own", async () => {
    expect(await hostPolicyRules({ host: "claude-code", homeDir: home, cwd: project })).toBeUndefined();
  });

  it("reads ~/.gemini/policies with the user tier and skips the workspace directory (off in Gemini CLI 0.61.0)", async () => {
    writeFileSync(join(home, ".gemini", "policies", "deny-rm.toml"), DENY_RM);
    mkdirSync(join(project, ".gemini", "policies"), { recursive: true });
    writeFileSync(
      join(project, ".gemini", "policies", "x.toml"),
      '[[rule]]\ntoolName = "read_file"\ndecision = "deny"\n',
    );
    const rules = await hostPolicyRules({ host: "gemini", homeDir: home, cwd: project });
    expect(rules?.rules.map((rule) => [rule.rule, rule.behavior])).toEqual([
      ["Bash", "allow"],
      ["Bash(rm *)", "deny"],
      ["Bash(git push *)", "ask"],
    ]);
    expect(rules?.claudeSettings).toBe(false);
  });

  it("a broken policy file fails loudly (a hook then fails closed), naming the file", async () => {
    writeFileSync(join(home, ".gemini", "policies", "bad.toml"), "[[rule]\n");
    await expect(hostPolicyRules({ host: "gemini", homeDir: home, cwd: project })).rejects.toThrow(/bad\.toml/);
  });
});

describe("the gemini host's policy (toolgate's rules beside Gemini's)", () => {
  it("denies what Gemini denies, keeps Gemini's asks, and has no opinion where no rule matches", async () => {
    writeFileSync(join(home, ".gemini", "policies", "deny-rm.toml"), DENY_RM);
    const { policy } = await loadToolgateSetup({ host: "gemini", cwd: project, homeDir: home, env: {} });
    const headless = { interactive: false };
    expect(policy.evaluate(shell("rm -rf victim"), headless)).toMatchObject({ behavior: "deny", rule: "Bash(rm *)" });
    expect(policy.evaluate(shell("ls"), headless)).toMatchObject({ behavior: "allow", rule: "Bash" });
    expect(policy.evaluate(shell("git push origin main"), headless)).toMatchObject({
      behavior: "deny",
      denialSource: "headless",
      rule: "Bash(git push *)",
    });
    expect(policy.evaluate({ tool: "read_file", input: { file_path: "a.txt" } }, headless).source).toBe("default");
    expect(policy.current?.sources.some((source) => source.endsWith("deny-rm.toml"))).toBe(true);
  });

  it("a toolgate deny wins over a Gemini allow of higher priority", async () => {
    writeFileSync(join(home, ".gemini", "policies", "deny-rm.toml"), DENY_RM);
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(curl *)"] } }));
    const { policy } = await loadToolgateSetup({ host: "gemini", cwd: project, homeDir: home, env: {} });
    expect(policy.evaluate(shell("curl https://example.com"), { interactive: false })).toMatchObject({
      behavior: "deny",
      rule: "Bash(curl *)",
    });
  });
});

describe("the codex host's policy (toolgate's rules beside Codex's .rules)", () => {
  const codexRules = [
    'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "no rm here")',
    'prefix_rule(pattern = ["git", "push"], decision = "prompt")',
    'prefix_rule(pattern = ["curl"], decision = "allow")',
    "T = 1",
  ].join("\n");

  it("reads $CODEX_HOME/rules (the environment's, else ~/.codex): forbidden denies, prompt asks, in Codex's words", async () => {
    const codexHome = join(home, "elsewhere");
    mkdirSync(join(codexHome, "rules"), { recursive: true });
    writeFileSync(join(codexHome, "rules", "default.rules"), codexRules);
    const env = { CODEX_HOME: codexHome };
    const rules = await hostPolicyRules({ host: "codex", homeDir: home, cwd: project, env });
    expect(rules?.rules.map((rule) => [rule.rule, rule.behavior])).toEqual([
      ['prefix_rule(pattern=["rm"], decision="forbidden")', "deny"],
      ['prefix_rule(pattern=["git","push"], decision="prompt")', "ask"],
      ['prefix_rule(pattern=["curl"], decision="allow")', "allow"],
    ]);
    expect(rules?.warnings.map((warning) => warning.code)).toEqual(["HOST_RULE_UNSUPPORTED"]);
    const { policy } = await loadToolgateSetup({ host: "codex", cwd: project, homeDir: home, env });
    expect(policy.evaluate(shell("echo hi && rm -rf victim"), { interactive: false })).toMatchObject({
      behavior: "deny",
      rule: 'prefix_rule(pattern=["rm"], decision="forbidden")',
      reason: expect.stringMatching(/^Codex's rule .* \(.*default\.rules:1\) forbids this command: no rm here\.$/),
    });
    expect(policy.evaluate(shell("git push origin"), { interactive: false })).toMatchObject({
      behavior: "deny",
      denialSource: "headless",
    });
    // without CODEX_HOME, ~/.codex: nothing there
    expect((await hostPolicyRules({ host: "codex", homeDir: home, cwd: project, env: {} }))?.rules).toEqual([]);
  });

  it("a Codex allow never outranks toolgate's deny", async () => {
    mkdirSync(join(home, ".codex", "rules"), { recursive: true });
    writeFileSync(join(home, ".codex", "rules", "default.rules"), codexRules);
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ permissions: { deny: ["Bash(curl *)"] } }));
    const { policy } = await loadToolgateSetup({ host: "codex", cwd: project, homeDir: home, env: {} });
    expect(policy.evaluate(shell("curl https://example.com"), { interactive: false })).toMatchObject({
      behavior: "deny",
      rule: "Bash(curl *)",
    });
  });
});
