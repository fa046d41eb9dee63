/**
 * A Claude Code settings file Claude Code itself ignores (a comment or a trailing comma: Claude Code 2.1.330 parses
 * settings as plain JSON and skips such a file, its rules and hooks with it) is ignored by the hook too, and said:
 * the hook does not deny every call over it. A settings file it cannot read at all still fails closed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readClaudeSettings } from "../../src/hosts/claude-code/claude-settings-hierarchy.js";
import { assertBuilt, removeSnapshot } from "../e2e/claude/toolgate-cli.js";
import { hookEntryCommand, spawnHook } from "./spawn-hook.js";

let root: string;
let project: string;
let home: string;
let env: Record<string, string | undefined>;
const settings = () => join(project, ".claude", "settings.json");

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), "toolgate-settings-ignored-"));
  project = join(root, "project");
  home = join(root, "home");
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(home);
  env = { PATH: process.env["PATH"], HOME: home, CLAUDE_CODE_SESSION_ATTENDED: "0", TOOLGATE_DB: join(root, "t.db") };
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  removeSnapshot();
});

const COMMENTED = '{\n  // the team\'s rules\n  "permissions": { "deny": ["Bash(rm:*)"] }\n}\n';

async function preToolUse(command: string, session: string) {
  const run = await spawnHook({
    argv: [...hookEntryCommand(), "hook", "claude-code"],
    input: JSON.stringify({
      session_id: session,
      cwd: project,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: `toolu_${session}`,
    }),
    cwd: project,
    env,
  });
  return { ...run, denied: run.stdout.includes('"permissionDecision":"deny"') };
}

describe("Claude Code settings the hook reads as Claude Code does", () => {
  it("skips a file with a comment or a trailing comma, naming it and why; reads a byte order mark", () => {
    for (const text of [COMMENTED, '{ "permissions": { "deny": ["Bash(rm:*)",] } }']) {
      writeFileSync(settings(), text);
      const read = readClaudeSettings({ cwd: project, homeDir: home, env: {} });
      expect(read.rules).toEqual([]);
      expect(read.skipped).toEqual([{ file: settings(), why: expect.stringMatching(/comments or trailing commas/) }]);
    }
    writeFileSync(settings(), '{ "permissions": { "deny": [');
    expect(readClaudeSettings({ cwd: project, homeDir: home, env: {} }).skipped[0]?.why).toMatch(/not valid JSON/);
    writeFileSync(settings(), '\uFEFF{ "permissions": { "deny": ["Bash(rm:*)"] } }');
    const bom = readClaudeSettings({ cwd: project, homeDir: home, env: {} });
    expect(bom.skipped).toEqual([]);
    expect(bom.rules.map((rule) => rule.rule)).toEqual(["Bash(rm:*)"]);
  });

  it("the hook does not deny `ls` over a commented settings file, and warns naming the file", async () => {
    writeFileSync(settings(), COMMENTED);
    const run = await preToolUse("ls", "commented");
    expect(run.exitCode).toBe(0);
    expect(run.denied).toBe(false);
    expect(run.stderr).toContain(`Claude Code ignores ${settings()}`);
  });

  it("a settings file it cannot read (here a folder) still fails closed", async () => {
    rmSync(settings());
    mkdirSync(settings());
    try {
      const run = await preToolUse("ls", "unreadable");
      expect(run.denied).toBe(true);
      expect(run.stdout).toContain("Cannot read");
    } finally {
      rmSync(settings(), { recursive: true });
    }
  });
});
