/** `toolgate install claude-code` / `uninstall` as a new user runs them (built CLI, temporary project). */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, type Workspace } from "./run-claude.js";
import { assertBuilt, removeSnapshot, runToolgate } from "./toolgate-cli.js";

describe("toolgate install / uninstall claude-code", () => {
  let workspace: Workspace;
  const original = {
    permissions: { deny: ["Bash(rm:*)"] },
    hooks: { Stop: [{ hooks: [{ type: "command", command: "./mine.sh" }] }] },
  };

  beforeAll(() => {
    assertBuilt();
    workspace = createWorkspace();
    workspace.writeProjectSettings(original);
  });
  afterAll(() => {
    removeSnapshot();
    workspace?.remove();
  });

  const settingsPath = () => join(workspace.project, ".claude", "settings.json");
  const run = (...args: string[]) => runToolgate({ args, cwd: workspace.project, env: { HOME: workspace.home } });

  it("--dry-run shows the diff and writes nothing", () => {
    const before = readFileSync(settingsPath(), "utf8");
    const result = run("install", "claude-code", "--project", "--dry-run");
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^\+ +"command": ".*hook claude-code",$/m);
    expect(result.stdout).toContain("Dry run");
    expect(readFileSync(settingsPath(), "utf8")).toBe(before);
  });

  it("installs once (idempotent), keeps the user's hooks, and uninstall removes exactly what it added", () => {
    expect(run("install", "claude-code", "--project").exitCode).toBe(0);
    const installed = JSON.parse(readFileSync(settingsPath(), "utf8"));
    expect(installed.hooks.Stop).toHaveLength(2);
    expect(installed.hooks.PreToolUse[0].hooks[0].command).toMatch(/hook claude-code$/);
    const again = run("install", "claude-code", "--project");
    expect(again.stdout).toContain("already installed");
    expect(run("uninstall", "claude-code", "--project").exitCode).toBe(0);
    expect(JSON.parse(readFileSync(settingsPath(), "utf8"))).toEqual(original);
  });

  it("by default writes .claude/settings.local.json (this machine's paths stay out of the shared file), says so, and uninstall removes the file it created", () => {
    const local = join(workspace.project, ".claude", "settings.local.json");
    const before = readFileSync(settingsPath(), "utf8");
    const installed = run("install", "claude-code");
    expect(installed.exitCode).toBe(0);
    expect(installed.stdout).toContain(`${local}: the default, --local`);
    expect(readFileSync(settingsPath(), "utf8")).toBe(before);
    expect(run("uninstall", "claude-code").exitCode).toBe(0);
    expect(existsSync(local)).toBe(false);
  });

  it("--user writes ~/.claude/settings.json; bad input is a usage error, not a stack trace", () => {
    expect(run("install", "claude-code", "--user").exitCode).toBe(0);
    expect(existsSync(join(workspace.home, ".claude", "settings.json"))).toBe(true);
    const unknownHost = run("install", "nope");
    expect(unknownHost.exitCode).toBe(2);
    expect(unknownHost.stderr).toContain(`unknown target "nope"`);
    writeFileSync(join(workspace.project, ".claude", "settings.local.json"), "{ broken");
    const broken = run("install", "claude-code", "--local");
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr).toContain("not a valid JSON object");
    expect(broken.stderr).not.toContain("    at ");
  });
});
