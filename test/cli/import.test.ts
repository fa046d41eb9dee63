import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

describe("toolgate import", () => {
  it("claude-code: merges the settings hierarchy and writes a config that check then uses", () => {
    const { home, project } = makeFixture({
      "project/.claude/settings.json": { permissions: { allow: ["Bash(npm test *)"], deny: ["Bash(git push *)"] } },
      "project/.claude/settings.local.json": { permissions: { ask: ["WebFetch"], defaultMode: "acceptEdits" } },
      "home/.claude/settings.json": { permissions: { deny: ["Read(~/.ssh/**)", "Bash(git push *)"] } },
    });
    const printed = runCli(["import", "claude-code"], { cwd: project, home });
    expect(printed.status).toBe(0);
    expect(JSON.parse(printed.stdout)).toEqual({
      permissions: {
        ask: ["WebFetch"],
        allow: ["Bash(npm test *)"],
        deny: ["Bash(git push *)", "Read(~/.ssh/**)"],
        defaultMode: "acceptEdits",
      },
    });
    const written = runCli(["import", "claude-code", "--write"], { cwd: project, home });
    expect(written.status).toBe(0);
    expect(written.stderr).toContain("wrote");
    const config = JSON.parse(readFileSync(join(project, "toolgate.config.json"), "utf8"));
    expect(config.permissions.deny).toContain("Bash(git push *)");
    const check = runCli(["check", "Bash", '{"command":"git push"}', "--claude-settings", "off"], {
      cwd: project,
      home,
    });
    expect(check.status).toBe(4);
  });

  it("opencode: keeps last-match-wins order and reports what it cannot express", () => {
    const { home, project } = makeFixture({
      "project/opencode.jsonc": `{
        // comments are allowed
        "permission": {
          "bash": { "*": "ask", "git *": "allow", "git push *": "deny", "rm ?x": "deny" },
          "edit": "deny",
          "doom_loop": "ask",
        },
      }`,
    });
    const result = runCli(["import", "opencode", "--write"], { cwd: project, home });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("cannot express: bash.rm ?x");
    expect(result.stderr).toContain("cannot express: doom_loop");
    const config = JSON.parse(readFileSync(join(project, "toolgate.config.json"), "utf8"));
    expect(config.permissions.rules).toEqual([
      { rule: "Bash", behavior: "ask", priority: 1 },
      { rule: "Bash(git *)", behavior: "allow", priority: 2 },
      { rule: "Bash(git push *)", behavior: "deny", priority: 3 },
      { rule: "Edit(**)", behavior: "deny", priority: 4 },
    ]);
    const run = (command: string) =>
      runCli(["check", "Bash", JSON.stringify({ command }), "--claude-settings", "off"], { cwd: project, home }).status;
    expect(run("git status")).toBe(0);
    expect(run("git push origin")).toBe(4);
    expect(run("make")).toBe(3);
    const edit = runCli(
      ["check", "Write", JSON.stringify({ file_path: join(project, "a.txt") }), "--claude-settings", "off"],
      {
        cwd: project,
        home,
      },
    );
    expect(edit.status).toBe(4);
  });

  it("gemini: converts priority tiers, commandPrefix, modes and interactive", () => {
    const { home, project } = makeFixture({
      "project/.gemini/policies/team.toml": `
[[rule]]
toolName = "run_shell_command"
commandPrefix = ["git status", "git log"]
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
decision = "deny"
priority = 50
interactive = false

[[rule]]
toolName = "run_shell_command"
commandRegex = "rm .*"
decision = "deny"
priority = 10

[[rule]]
toolName = "write_file"
decision = "ask_user"
modes = ["default", "autoEdit"]
`,
      "home/.gemini/policies/me.toml": `
[[rule]]
toolName = "web_fetch"
decision = "deny"
`,
    });
    const result = runCli(["import", "gemini"], { cwd: project, home });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("commandRegex");
    // tier + priority/1000, minus position/10^7 so equal priorities keep Gemini's load order
    expect(JSON.parse(result.stdout).permissions.rules).toEqual([
      { rule: "Bash(git status *)", behavior: "allow", priority: 3.1 },
      { rule: "Bash(git log *)", behavior: "allow", priority: 3.1 },
      { rule: "Bash", behavior: "deny", priority: 3.0499999, interactive: false },
      { rule: "Write", behavior: "ask", priority: 2.9999997, modes: ["default", "acceptEdits"] },
      { rule: "WebFetch", behavior: "deny", priority: 3.9999996 },
    ]);
    runCli(["import", "gemini", "--write"], { cwd: project, home });
    const check = (command: string, ...flags: string[]) =>
      runCli(["check", "Bash", JSON.stringify({ command }), "--claude-settings", "off", ...flags], {
        cwd: project,
        home,
      }).status;
    expect(check("git status", "--headless")).toBe(0);
    expect(check("make", "--headless")).toBe(4);
    expect(check("make")).toBe(3);
  });

  it("fails with exit code 2 when there is nothing to import or the host is unknown", () => {
    const { home, project } = makeFixture({});
    const missing = runCli(["import", "opencode"], { cwd: project, home });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("No opencode config found");
    expect(runCli(["import", "cursor"], { cwd: project, home }).status).toBe(2);
  });
});
