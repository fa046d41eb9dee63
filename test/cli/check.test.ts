import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ensureBuilt, makeFixture, runCli } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const settings = {
  "project/.claude/settings.json": { permissions: { deny: ["Bash(git push *)"], allow: ["Bash(npm test *)"] } },
  "project/.claude/settings.local.json": { permissions: { ask: ["Bash(npm publish *)"] } },
  "home/.claude/settings.json": { permissions: { deny: ["Read(./.env)"] } },
};

describe("toolgate check", () => {
  it("denies by a project rule, with exit code 4 and the rule in --json", () => {
    const { home, project } = makeFixture(settings);
    const result = runCli(["check", "Bash", '{"command":"git push origin main"}', "--json"], { cwd: project, home });
    expect(result.status).toBe(4);
    expect(JSON.parse(result.stdout)).toMatchObject({ behavior: "deny", rule: "Bash(git push *)", source: "policy" });
  });
  it("ignores project allow entries in an untrusted workspace and honours them once trusted", () => {
    const fixture = makeFixture(settings);
    const untrusted = runCli(["check", "Bash", '{"command":"npm test"}', "--json"], {
      cwd: fixture.project,
      home: fixture.home,
    });
    expect(untrusted.status).toBe(3);
    writeFileSync(
      join(fixture.home, ".claude.json"),
      JSON.stringify({ projects: { [fixture.project]: { hasTrustDialogAccepted: true } } }),
    );
    const result = runCli(["check", "Bash", '{"command":"npm test"}', "--json"], {
      cwd: fixture.project,
      home: fixture.home,
    });
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ behavior: "allow", rule: "Bash(npm test *)" });
  });
  it("asks for local ask rules (exit 3) and denies them headless with source headless", () => {
    const { home, project } = makeFixture(settings);
    expect(runCli(["check", "Bash", '{"command":"npm publish"}'], { cwd: project, home }).status).toBe(3);
    const headless = runCli(["check", "Bash", '{"command":"npm publish"}', "--headless", "--json"], {
      cwd: project,
      home,
    });
    expect(headless.status).toBe(4);
    expect(JSON.parse(headless.stdout)).toMatchObject({
      behavior: "deny",
      denialSource: "headless",
      rule: "Bash(npm publish *)",
    });
  });
  it("applies user rules to the project and to shell file readers", () => {
    const { home, project } = makeFixture(settings);
    expect(runCli(["check", "Read", '{"file_path":".env"}'], { cwd: project, home }).status).toBe(4);
    expect(runCli(["check", "Bash", '{"command":"cat .env"}'], { cwd: project, home }).status).toBe(4);
    expect(runCli(["check", "Read", '{"file_path":"src/a.ts"}'], { cwd: project, home }).status).toBe(0);
  });
  it("uses modes and prints a readable explanation", () => {
    const { home, project } = makeFixture(settings);
    const result = runCli(["check", "Bash", '{"command":"zzother"}', "--mode", "dontAsk"], { cwd: project, home });
    expect(result.status).toBe(4);
    expect(result.stdout).toMatch(/^DENY .*dontAsk/);
    expect(result.stdout).toContain("source: mode");
  });
  it("--claude-settings off drops the settings and the defaults preset", () => {
    const { home, project } = makeFixture(settings);
    expect(
      runCli(["check", "Bash", '{"command":"git push"}', "--claude-settings", "off"], { cwd: project, home }).status,
    ).toBe(3);
    expect(
      runCli(["check", "Bash", '{"command":"ls"}', "--claude-settings", "off"], { cwd: project, home }).status,
    ).toBe(3);
    expect(runCli(["check", "Bash", '{"command":"ls"}'], { cwd: project, home }).status).toBe(0);
  });
  it("reads toolgate.config.json rules and neverGrant", () => {
    const { home, project } = makeFixture({
      "project/toolgate.config.json": {
        permissions: { deny: ["WebFetch(domain:*.evil.test)"], neverGrant: ["Bash(rm *)"] },
      },
    });
    const web = runCli(["check", "WebFetch", '{"url":"https://a.evil.test/x"}', "--json"], { cwd: project, home });
    expect(web.status).toBe(4);
    expect(JSON.parse(web.stdout).rule).toBe("WebFetch(domain:*.evil.test)");
    expect(
      runCli(["check", "Bash", '{"command":"rm x"}', "--grant", "Bash(rm x)"], { cwd: project, home }).status,
    ).toBe(3);
    expect(
      runCli(["check", "Bash", '{"command":"mv a b"}', "--grant", "Bash(mv a b)"], { cwd: project, home }).status,
    ).toBe(0);
  });
  it("rejects bad usage with exit code 2 and no stack trace", () => {
    const { home, project } = makeFixture({ "project/toolgate.config.json": { permissions: { alow: ["Bash"] } } });
    const badConfig = runCli(["check", "Bash", '{"command":"ls"}'], { cwd: project, home });
    expect(badConfig.status).toBe(2);
    expect(badConfig.stderr).toContain("permissions.alow");
    expect(badConfig.stderr).toContain("did you mean `allow`?");
    expect(badConfig.stderr).not.toMatch(/at .*\.js:\d+/);
    const clean = makeFixture({});
    expect(runCli(["check", "Bash", "not json"], { cwd: clean.project, home: clean.home }).status).toBe(2);
    expect(runCli(["check", "Bash", "{}", "--mode", "yolo"], { cwd: clean.project, home: clean.home }).status).toBe(2);
  });
});
