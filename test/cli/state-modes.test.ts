import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, makeFixture, runCli } from "./cli-fixture.js";

/**
 * ~/.toolgate holds commands and paths: whichever command makes it, it and every folder in it are 0700 and every
 * file 0600 (issue 25, item 16: it was 0755 or 0700 depending on the command, the database 0644).
 */
function wrongModes(home: string): string[] {
  const wrong: string[] = [];
  const walk = (path: string) => {
    const stat = statSync(path);
    const mode = stat.mode & 0o777;
    if (mode !== (stat.isDirectory() ? 0o700 : 0o600)) wrong.push(`${path.slice(home.length + 1)} ${mode.toString(8)}`);
    if (stat.isDirectory()) for (const entry of readdirSync(path)) walk(join(path, entry));
  };
  walk(join(home, ".toolgate"));
  return wrong;
}

/** a rule-denied Bash call as Claude Code sends it to its PreToolUse hook */
function hook(project: string, home: string) {
  const event = {
    session_id: "modes",
    transcript_path: join(project, "none.jsonl"),
    cwd: project,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "rm -rf build" },
    tool_use_id: "toolu_modes_1",
  };
  return spawnSync(process.execPath, [cliPath, "hook", "claude-code"], {
    cwd: project,
    input: JSON.stringify(event),
    env: { PATH: process.env.PATH ?? "", HOME: home, TMPDIR: tmpdir() },
    encoding: "utf8",
    timeout: 20_000,
  });
}

describe("~/.toolgate is 0700 and what is in it 0600, whichever command makes it", () => {
  it.each([["report"], ["tail", "--no-follow"], ["hook"]])("%s", (...args) => {
    const { home, project } = makeFixture({
      "project/.claude/settings.json": { permissions: { deny: ["Bash(rm:*)"] } },
    });
    if (args[0] === "hook") {
      expect(hook(project, home).stdout).toContain('"permissionDecision":"deny"');
      // the record waits in the spool; report drains it into a new database
      expect(runCli(["report"], { cwd: project, home }).stdout).toContain("1 denial in 1 session");
    } else {
      expect(runCli(args, { cwd: project, home }).status).toBe(0);
    }
    expect(existsSync(join(home, ".toolgate"))).toBe(true);
    expect(wrongModes(home)).toEqual([]);
  });
});
