import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { residentServerFile } from "../../src/hook-runtime/hook-server-start.js";
import { ensureBuilt, makeFixture, repoRoot, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function fixture() {
  const made = makeFixture({});
  roots.push(made.root);
  const cli = (args: string[]) => runCli(args, { cwd: made.project, home: made.home, env: {} });
  return { ...made, cli };
}

describe("toolgate install / uninstall (the built CLI, a temporary HOME)", () => {
  it("claude-code defaults to .claude/settings.local.json and says why; uninstall leaves no file behind", () => {
    const { cli, project } = fixture();
    const local = join(project, ".claude", "settings.local.json");
    const run = cli(["install", "claude-code"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`toolgate hooks installed in ${local}.`);
    expect(run.stdout).toContain(`${local}: the default, --local:`);
    expect(existsSync(join(project, ".claude", "settings.json"))).toBe(false);
    const removed = cli(["uninstall", "claude-code"]);
    expect(removed.status).toBe(0);
    expect(removed.stdout).toContain("It held nothing else, so the file was deleted.");
    expect(existsSync(local)).toBe(false);
    expect(existsSync(join(project, ".claude"))).toBe(false);
  });

  it("uninstall with the default scope names the other scope where toolgate is installed", () => {
    const { cli, project } = fixture();
    expect(cli(["install", "claude-code", "--project"]).status).toBe(0);
    const run = cli(["uninstall", "claude-code"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain("not installed in");
    expect(run.stdout).toContain(
      `toolgate is installed in ${join(project, ".claude", "settings.json")}: toolgate uninstall claude-code --project`,
    );
  });

  it("--project still writes the shared .claude/settings.json, without the default's note", () => {
    const { cli, project } = fixture();
    const run = cli(["install", "claude-code", "--project"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`toolgate hooks installed in ${join(project, ".claude", "settings.json")}.`);
    expect(run.stdout).not.toContain("the default");
  });

  it("refuses a Claude Code settings file with a comment (Claude Code ignores it): exit 2, nothing changed", () => {
    const { cli, project } = fixture();
    const file = join(project, ".claude", "settings.local.json");
    mkdirSync(join(project, ".claude"), { recursive: true });
    const text = '{\n  // mine\n  "model": "opus"\n}\n';
    writeFileSync(file, text);
    const run = cli(["install", "claude-code"]);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("has comments or trailing commas: Claude Code reads settings files as plain JSON");
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("a scope the host does not have is a usage error (exit 2) for every host", () => {
    const { cli } = fixture();
    for (const host of ["gemini", "codex", "qwen", "opencode"]) {
      const run = cli(["install", host, "--local"]);
      expect(run.status, `${host}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(/no local/i);
    }
  });

  it("the other hosts default to the user's own settings, never a file the project shares (issue 25, item 12's class)", () => {
    const { cli, home, project } = fixture();
    const expected: Record<string, string> = {
      gemini: join(home, ".gemini", "settings.json"),
      qwen: join(home, ".qwen", "settings.json"),
      opencode: join(home, ".config", "opencode", "opencode.json"),
      codex: join(home, ".codex", "hooks.json"),
    };
    for (const [host, file] of Object.entries(expected)) {
      const run = cli(["install", host, "--dry-run"]);
      expect(run.status, `${host}: ${run.stderr}`).toBe(0);
      expect(run.stdout, host).toContain(file);
      expect(run.stdout, host).toContain("the default, --user:");
      expect(run.stdout, host).not.toContain(project);
    }
  });

  it("--resident writes the bash client's command for every hook host; uninstall removes it; other targets refuse it", () => {
    const { cli, project } = fixture();
    const hookHosts = ["claude-code", "codex", "gemini", "qwen", "copilot"];
    for (const host of hookHosts) {
      const run = cli(["install", host, "--resident", "--dry-run", ...(host === "claude-code" ? [] : ["--user"])]);
      expect(run.status, `${host}: ${run.stderr}`).toBe(0);
      // bash, the client beside the hook entry, this node for its fallback, then `hook <host>` as usual
      expect(run.stdout, host).toMatch(/"(command|bash)": "\\"\/[^"\\]*\/bash\\" /);
      expect(run.stdout, host).toContain(`/dist/hook/toolgate-hook.sh\\" \\"${process.execPath}\\" hook ${host}`);
    }
    expect(cli(["install", "claude-code", "--resident"]).status).toBe(0);
    const settings = readFileSync(join(project, ".claude", "settings.local.json"), "utf8");
    expect(settings).toContain("toolgate-hook.sh");
    expect(settings).not.toContain("toolgate-hook.cjs");
    const removed = cli(["uninstall", "claude-code"]);
    expect(removed.status).toBe(0);
    expect(existsSync(join(project, ".claude", "settings.local.json"))).toBe(false);
    const both = cli(["install", "claude-code", "--resident", "--command", "x hook claude-code"]);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("choose one of --resident and --command");
    const proxy = cli(["install", "opencode", "--resident"]);
    expect(proxy.status).toBe(2);
    expect(proxy.stderr).toMatch(/--resident belongs to the hook hosts \(claude-code, .*\)/);
  });

  it("uninstall stops this install's resident hook server, which takes its file with it", async () => {
    const { cli, home } = fixture();
    expect(cli(["install", "claude-code", "--resident"]).status).toBe(0);
    // the server the client's first event would have started, for the built install (dist/hook)
    const hook = join(repoRoot, "dist", "hook");
    const file = residentServerFile(home, hook);
    const server = spawn(process.execPath, [join(hook, "toolgate-hook.cjs"), "--serve", file], {
      env: { PATH: process.env["PATH"], HOME: home, TOOLGATE_HOOK_SERVER_IDLE_MS: "60000" },
      stdio: "ignore",
    });
    const exited = new Promise((resolve) => server.once("exit", resolve));
    try {
      const deadline = Date.now() + 20_000;
      while (!existsSync(file) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(readFileSync(file, "utf8")).toMatch(new RegExp(` ${server.pid}\\n$`));
      const removed = cli(["uninstall", "claude-code"]);
      expect(removed.status).toBe(0);
      expect(removed.stdout).toContain(`Stopped toolgate's resident hook server (pid ${server.pid})`);
      await exited;
      expect(existsSync(file)).toBe(false);
      // nothing running: nothing said
      expect(cli(["install", "claude-code", "--resident"]).status).toBe(0);
      expect(cli(["uninstall", "claude-code"]).stdout).not.toContain("resident hook server");
    } finally {
      server.kill();
    }
  });
});
