import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function fixture(files: Record<string, unknown> = {}) {
  const made = makeFixture(files);
  roots.push(made.root);
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { cwd: made.project, home: made.home, env });
  return { ...made, cli };
}

const INVALID_CONFIG = { permisions: { allow: ["Read"] } };

describe("toolgate doctor (the built CLI, a temporary HOME)", () => {
  it("on a fresh HOME: names the hosts it looked for, exit 0", () => {
    const { cli, home, project } = fixture();
    const run = cli(["doctor"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^ok {4}node: Node \d+\.\d+\.\d+/m);
    expect(run.stdout).toContain("warn  hosts: no agent host found: looked for Claude Code");
    expect(run.stdout).toContain(join(home, ".claude"));
    expect(run.stdout).toContain(join(home, ".config", "opencode"));
    expect(run.stdout).toContain(join(project, "opencode.json"));
    expect(run.stdout).toMatch(/^ok {4}store: .* will be created on first use/m);
    expect(run.stderr).toBe("");
  });

  it("an invalid config: a fail line naming the file and the key path, exit 1", () => {
    const { cli, project } = fixture({ "project/toolgate.config.json": INVALID_CONFIG });
    const file = join(project, "toolgate.config.json");
    const run = cli(["doctor"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`fail  config: ${file} is not a valid toolgate config:`);
    expect(run.stdout).toContain("- permisions: unknown key `permisions` (did you mean `permissions`?)");
    expect(run.stdout).toContain(`fix: Edit ${file}`);
    expect(run.stdout).toContain("1 check failed");
  });

  it("--json: one document, every key present, the config check failed with the error's message", () => {
    const { cli, project } = fixture({ "project/toolgate.config.json": INVALID_CONFIG });
    const run = cli(["doctor", "--json"]);
    expect(run.status).toBe(1);
    const document = JSON.parse(run.stdout) as { checks: Record<string, unknown>[]; ok: boolean };
    expect(document.ok).toBe(false);
    for (const check of document.checks)
      expect(Object.keys(check).sort()).toEqual(["fix", "message", "name", "status"]);
    const config = document.checks.find((check) => check.name === "config");
    expect(config).toMatchObject({ status: "fail" });
    expect(config?.message).toContain(`${join(project, "toolgate.config.json")} is not a valid toolgate config`);
    expect(config?.message).toContain("permisions: unknown key");
    expect(document.checks.find((check) => check.name === "node")).toMatchObject({ status: "ok", fix: null });
  });

  it("after `toolgate install claude-code`: the hooks and the hook command are ok", () => {
    const { cli, project } = fixture();
    expect(cli(["install", "claude-code"]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(0);
    // the default scope is --local (this machine's own settings file)
    expect(run.stdout).toContain(
      `ok    claude-code hooks (local): installed in ${join(project, ".claude", "settings.local.json")}`,
    );
    expect(run.stdout).toMatch(/^ok {4}claude-code hook command: .* runs toolgate \d+\.\d+\.\d+/m);
    expect(run.stdout).not.toContain("hosts: no agent host found");
  });

  it("a hook command that does not start toolgate fails, with the install command as the fix", () => {
    const { cli, root, home, project } = fixture();
    // a workspace the person trusted in Claude Code: doctor runs its project hook command
    writeFileSync(
      join(home, ".claude.json"),
      JSON.stringify({ projects: { [project]: { hasTrustDialogAccepted: true } } }),
    );
    const command = `"${join(root, "missing", "toolgate")}" hook claude-code`;
    expect(cli(["install", "claude-code", "--command", command]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("fail  claude-code hook command: the hook command in");
    expect(run.stdout).toContain("fix: toolgate install claude-code --local");
  });

  it("a Claude Code settings file with a comment fails: Claude Code ignores it, and doctor names the fix", () => {
    const { cli, project, home } = fixture();
    expect(cli(["install", "claude-code", "--user"]).status).toBe(0);
    const file = join(project, ".claude", "settings.json");
    mkdirSync(join(project, ".claude"), { recursive: true });
    writeFileSync(file, '{\n  // the team\'s rules\n  "permissions": { "deny": ["Bash(rm:*)"] }\n}\n');
    const run = cli(["doctor"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`fail  claude-code settings: Claude Code ignores ${file}`);
    expect(run.stdout).toMatch(/fix: It has comments or trailing commas, .*: remove them/);
    expect(run.stdout).toContain(
      `ok    claude-code hooks (user): installed in ${join(home, ".claude", "settings.json")}`,
    );
  });

  it("a foreign hook command in an untrusted workspace's project settings is not run", () => {
    const { cli, root } = fixture();
    const marker = join(root, "ran");
    expect(cli(["install", "claude-code", "--command", `touch "${marker}" && echo hook claude-code`]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("warn  claude-code hook command: not run:");
    expect(existsSync(marker)).toBe(false);
  });

  it("the resident hook's command (`install --resident`) is this toolgate's: run in an untrusted workspace too", () => {
    const { cli } = fixture();
    expect(cli(["install", "claude-code", "--resident"]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(0);
    expect(run.stdout).not.toContain("not run:");
    expect(run.stdout).toMatch(
      /ok {4}claude-code hook command: "[^"]*\/bash" "[^"]*toolgate-hook\.sh" .* runs toolgate \d+\.\d+\.\d+/,
    );
  });

  it("after `toolgate install opencode`: the plugin entry and its file are ok", () => {
    const { cli, project } = fixture();
    expect(cli(["install", "opencode", "--project"]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`ok    opencode plugin (project): ${join(project, "opencode.json")} loads `);
  });

  it("an opencode plugin entry whose file does not exist fails, with the install command as the fix", () => {
    const { cli, root } = fixture();
    const url = `file://${join(root, "gone", "toolgate", "dist", "hosts", "opencode", "opencode-plugin.js")}`;
    expect(cli(["install", "opencode", "--project", "--command", url]).status).toBe(0);
    const run = cli(["doctor"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain("which does not exist; opencode runs without toolgate");
    expect(run.stdout).toContain("fix: toolgate install opencode --project");
  });

  it("TOOLGATE_DB pointing at a directory: the store check fails with a fix", () => {
    const { cli, root } = fixture();
    const directory = join(root, "db-dir");
    mkdirSync(directory);
    const run = cli(["doctor"], { TOOLGATE_DB: directory });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(`fail  store: ${directory} is a directory, not a SQLite database file`);
    expect(run.stdout).toContain(`fix: Set TOOLGATE_DB to a file path such as ${join(directory, "toolgate.db")}`);
  });

  it("an existing SQLite store is opened and closed", () => {
    const { cli, root } = fixture();
    const db = join(root, "t.db");
    expect(cli(["report", "--json"], { TOOLGATE_DB: db }).status).toBe(0);
    const run = cli(["doctor"], { TOOLGATE_DB: db });
    expect(run.stdout).toContain(`ok    store: sqlite:${db} opens and is writable`);
  });
});

describe("toolgate hook claude-code with an invalid toolgate.config.json", () => {
  it("denies, naming the file, the key path and `toolgate doctor`", () => {
    const { root, home, project } = fixture({ "project/toolgate.config.json": INVALID_CONFIG });
    const event = JSON.parse(readFileSync(join(repoRoot, "test/fixtures/claude-code/pre-tool-use.json"), "utf8"));
    const run = spawnSync(process.execPath, [cliPath, "hook", "claude-code"], {
      cwd: project,
      input: JSON.stringify({ ...event, cwd: project }),
      env: {
        PATH: process.env.PATH ?? "",
        TMPDIR: tmpdir(),
        HOME: home,
        CLAUDE_PROJECT_DIR: project,
        TOOLGATE_DB: join(root, "t.db"),
      },
      encoding: "utf8",
    });
    const output = JSON.parse(run.stdout).hookSpecificOutput;
    expect(output.permissionDecision).toBe("deny");
    const reason = String(output.permissionDecisionReason);
    expect(reason).toContain(`${join(project, "toolgate.config.json")} is not a valid toolgate config`);
    expect(reason).toContain("permisions: unknown key");
    expect(reason).toContain("run `toolgate doctor` to check it");
  });
});
