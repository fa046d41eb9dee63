import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { readClaudeSettings } from "../hosts/claude-code/claude-settings-hierarchy.js";
import { createPolicy } from "./create-policy.js";
import { loadConfig } from "./load-config.js";

function fixture(files: Record<string, unknown>) {
  const root = temporaryDirectory("toolgate-node-");
  for (const [path, content] of Object.entries(files)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  }
  mkdirSync(join(root, "project/sub"), { recursive: true });
  mkdirSync(join(root, "home"), { recursive: true });
  return { root, project: join(root, "project"), home: join(root, "home") };
}

describe("loadConfig", () => {
  it("overlays the nearest project config on the user config and applies env overrides", () => {
    const f = fixture({
      "home/.toolgate.json": { permissions: { deny: ["Bash(rm *)"] }, escalation: { defaultThreshold: 2 } },
      "project/.toolgate.json": { permissions: { deny: ["Read(.env)"] } },
    });
    const loaded = loadConfig({ cwd: join(f.project, "sub"), homeDir: f.home, env: { TOOLGATE_NUDGE_THRESHOLD: "x" } });
    expect(loaded.config.permissions?.deny).toEqual(["Bash(rm *)", "Read(.env)"]);
    expect(loaded.config.escalation?.defaultThreshold).toBe(2);
    expect(loaded.sources).toEqual([join(f.home, ".toolgate.json"), join(f.project, ".toolgate.json")]);
    expect(loaded.warnings[0]?.code).toBe("ENV_INVALID");
  });
  it("reads TOOLGATE_CONFIG and fails clearly when it is missing or broken", () => {
    const f = fixture({ "elsewhere.json": { escalation: { defaultThreshold: 9 } }, "broken.json": "{ nope" });
    expect(
      loadConfig({ cwd: f.project, homeDir: f.home, env: { TOOLGATE_CONFIG: "../elsewhere.json" } }).config,
    ).toEqual({
      escalation: { defaultThreshold: 9 },
    });
    expect(() => loadConfig({ cwd: f.project, homeDir: f.home, env: { TOOLGATE_CONFIG: "missing.json" } })).toThrow(
      /TOOLGATE_CONFIG names .*missing.json/,
    );
    expect(() => loadConfig({ cwd: f.project, homeDir: f.home, env: { TOOLGATE_CONFIG: "../broken.json" } })).toThrow(
      /broken.json is not valid JSON/,
    );
  });
});

describe("readClaudeSettings", () => {
  it("merges managed (with drop-ins), local, project and user settings", () => {
    const f = fixture({
      "etc/managed-settings.json": { permissions: { deny: ["Bash(curl *)"], defaultMode: "plan" } },
      "etc/managed-settings.d/10-extra.json": { permissions: { deny: ["WebFetch"] } },
      "project/.claude/settings.local.json": {
        permissions: { ask: ["Bash(npm publish *)"], defaultMode: "acceptEdits" },
      },
      "project/.claude/settings.json": {
        permissions: { allow: ["Bash(npm test *)"], additionalDirectories: ["/data"] },
      },
      "home/.claude/settings.json": { permissions: { deny: ["Read(~/.ssh/**)"] } },
    });
    const settings = readClaudeSettings({
      cwd: f.project,
      homeDir: f.home,
      managedSettingsPath: join(f.root, "etc/managed-settings.json"),
      workspaceTrust: "trusted",
    });
    expect(settings.rules.map((rule) => `${rule.behavior} ${rule.rule}`)).toEqual([
      "deny Bash(curl *)",
      "deny WebFetch",
      "ask Bash(npm publish *)",
      "allow Bash(npm test *)",
      "deny Read(~/.ssh/**)",
    ]);
    expect(settings.defaultMode).toBe("plan");
    expect(settings.additionalDirectories).toEqual(["/data"]);
    expect(settings.files).toHaveLength(5);
  });
  it("honours allowManagedPermissionRulesOnly and the trust flag in ~/.claude.json", () => {
    const f = fixture({
      "etc/managed-settings.json": { allowManagedPermissionRulesOnly: true, permissions: { allow: ["Bash(ls)"] } },
      "project/.claude/settings.json": { permissions: { allow: ["Bash(npm test *)"] } },
    });
    const managed = join(f.root, "etc/managed-settings.json");
    const managedOnly = readClaudeSettings({ cwd: f.project, homeDir: f.home, managedSettingsPath: managed });
    expect(managedOnly.rules.map((rule) => rule.rule)).toEqual(["Bash(ls)"]);
    const g = fixture({ "project/.claude/settings.json": { permissions: { allow: ["Bash(npm test *)"] } } });
    expect(readClaudeSettings({ cwd: g.project, homeDir: g.home, managedSettingsPath: managed }).rules).toHaveLength(1);
    const none = join(g.root, "none.json");
    expect(readClaudeSettings({ cwd: g.project, homeDir: g.home, managedSettingsPath: none }).trusted).toBe(false);
    writeFileSync(
      join(g.home, ".claude.json"),
      JSON.stringify({ projects: { [g.root]: { hasTrustDialogAccepted: true } } }),
    );
    const trusted = readClaudeSettings({ cwd: g.project, homeDir: g.home, managedSettingsPath: none });
    expect(trusted.trusted).toBe(true);
    expect(trusted.rules.map((rule) => rule.rule)).toEqual(["Bash(npm test *)"]);
  });
});

describe("createPolicy", () => {
  it("applies the read-only defaults preset by default and under its earlier name, and none when asked", () => {
    const decide = (defaults?: string) => {
      const f = fixture({
        "project/toolgate.config.json": {
          permissions: defaults === undefined ? {} : { defaults },
          claudeSettings: { workspaceTrust: "trusted", managedSettingsPath: "/nonexistent/managed.json" },
        },
      });
      return createPolicy({ cwd: f.project, homeDir: f.home, env: {} }).evaluate({
        tool: "Bash",
        input: { command: "ls" },
      }).behavior;
    };
    expect(decide()).toBe("allow");
    expect(decide("read-only")).toBe("allow");
    expect(decide("claude-code")).toBe("allow");
    expect(decide("none")).toBe("ask");
  });
  it("combines the toolgate config and the Claude settings; a deny anywhere wins", () => {
    const f = fixture({
      "project/toolgate.config.json": {
        permissions: { allow: ["Bash(git push *)"] },
        claudeSettings: { workspaceTrust: "trusted", managedSettingsPath: "/nonexistent/managed.json" },
      },
      "home/.claude/settings.json": { permissions: { deny: ["Bash(git push --force *)"] } },
    });
    const policy = createPolicy({ cwd: f.project, homeDir: f.home, env: {} });
    expect(policy.evaluate({ tool: "Bash", input: { command: "git push origin" } }).behavior).toBe("allow");
    expect(policy.evaluate({ tool: "Bash", input: { command: "git push --force origin" } })).toMatchObject({
      behavior: "deny",
      origin: expect.stringContaining("user settings"),
    });
    const off = createPolicy({ cwd: f.project, homeDir: f.home, env: {}, claudeSettings: false });
    expect(off.evaluate({ tool: "Bash", input: { command: "git push --force origin" } }).behavior).toBe("allow");
  });
  it("skips unreadable Claude rules with a warning and fails closed on internal errors", () => {
    const f = fixture({ "project/.claude/settings.json": { permissions: { deny: ["Bash(oops", "Bash(rm *)"] } } });
    const policy = createPolicy({ cwd: f.project, homeDir: f.home, env: {} });
    expect(policy.warnings.map((warning) => warning.code)).toContain("RULE_SYNTAX");
    expect(policy.evaluate({ tool: "Bash", input: { command: "rm x" } }).behavior).toBe("deny");
    const hostile = {
      get command(): string {
        throw new Error("boom");
      },
    };
    expect(policy.evaluate({ tool: "Bash", input: hostile })).toMatchObject({ behavior: "deny", source: "toolgate" });
  });
});
