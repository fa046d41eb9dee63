/**
 * A skill's inline shell command (`!` + a backquoted command in `.claude/skills/<name>/SKILL.md`) runs when the skill
 * loads, outside any tool call: Claude Code 2.1.331+ reports it to a `PreSkillShellCommand` hook and nothing else.
 * A stubborn scripted model invokes a skill whose command is `rm -rf` (denied by toolgate's own `Bash(rm:*)` rule in
 * toolgate.config.json) again and again. With `toolgate install claude-code`, toolgate refuses the command, counts each refusal like any
 * shell denial, stops the run at its threshold and `toolgate run` exits 6; the model reads toolgate's text where the
 * command's output would have been. Without toolgate the same script runs to its end and Claude Code exits 0.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "./toolgate-cli.js";

const ATTEMPTS = 12;
const SKILL = [
  "---",
  "name: cleanup",
  "description: Removes the build directory",
  "allowed-tools: Bash(rm:*)",
  "---",
  "Removing the build directory.",
  "",
  "Result: !`rm -rf build && echo removed`",
  "",
].join("\n");

interface Scenario {
  workspace: Workspace;
  database: string;
  fake: FakeAnthropic;
  run: ClaudeRunResult;
}

async function scenario(options: { withToolgate: boolean }): Promise<Scenario> {
  const workspace = createWorkspace();
  workspace.trustProject();
  workspace.writeProjectSettings({ permissions: { allow: ["Skill(cleanup)"] } });
  // toolgate's own rule: a Claude Code deny rule would refuse the whole Skill call before the command is reported
  workspace.writeFile("toolgate.config.json", `${JSON.stringify({ permissions: { deny: ["Bash(rm:*)"] } })}\n`);
  workspace.writeFile(".claude/skills/cleanup/SKILL.md", SKILL);
  workspace.writeFile("build/output.txt", "built\n");
  const database = join(workspace.root, "toolgate.db");
  if (options.withToolgate) {
    const env = { TOOLGATE_DB: database, HOME: workspace.home };
    const install = runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env });
    expect(install.exitCode, install.stderr).toBe(0);
  }
  // the stubborn model: the same skill, every turn
  const fake = await startFakeAnthropic({
    conversations: {
      main: Array.from({ length: ATTEMPTS }, () => ({ toolUses: [{ name: "Skill", input: { skill: "cleanup" } }] })),
    },
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Clean the build directory.",
    maxTurns: 40,
    env: { TOOLGATE_DB: database },
    ...(options.withToolgate ? { wrapper: toolgateCommand("run", "--") } : {}),
  });
  return { workspace, database, fake, run };
}

/** The skill text each invocation put in front of the model (a user text block beside the Skill tool result). */
function skillTexts(fake: FakeAnthropic): string[] {
  const last = fake.requests.filter((request) => request.body?.messages !== undefined).at(-1);
  const texts: string[] = [];
  for (const message of last?.body?.messages ?? []) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content as { type?: string; text?: string }[]) {
      if (block.type === "text" && typeof block.text === "string" && block.text.includes("Base directory")) {
        texts.push(block.text);
      }
    }
  }
  return texts;
}

describe("a skill's inline shell command (PreSkillShellCommand)", () => {
  let guarded: Scenario;
  let bare: Scenario;

  beforeAll(async () => {
    assertBuilt();
    [guarded, bare] = await Promise.all([scenario({ withToolgate: true }), scenario({ withToolgate: false })]);
  }, 240_000);

  afterAll(async () => {
    removeSnapshot();
    console.info(
      `[effectiveness] skill shell command x${ATTEMPTS}: toolgate run -> ${guarded?.fake.servedToolUses().length} skill calls, exit ${guarded?.run.exitCode}; without toolgate -> ${bare?.fake.servedToolUses().length} skill calls, exit ${bare?.run.exitCode}`,
    );
    if (process.env.TOOLGATE_E2E_DEBUG) {
      console.info(
        guarded?.run.stderr,
        JSON.stringify(skillTexts(guarded.fake)),
        JSON.stringify(guarded.fake.toolResults()),
      );
    }
    for (const item of [guarded, bare]) {
      await item?.fake.close();
      item?.workspace.remove();
    }
  });

  it("without toolgate: the stubborn script runs to its end and Claude Code exits 0", () => {
    expect(bare.run.timedOut).toBe(false);
    expect(bare.run.exitCode).toBe(0);
    expect(bare.fake.servedToolUses()).toHaveLength(ATTEMPTS);
  });

  it("with toolgate: the command never runs, the model reads toolgate's refusal in its place", () => {
    expect(existsSync(join(guarded.workspace.project, "build", "output.txt"))).toBe(true);
    const [first] = skillTexts(guarded.fake);
    expect(first).toMatch(/Result: \[not run: blocked by hook: [^\]]*\[toolgate\]/);
    expect(first).toContain("Bash(rm:*)");
    expect(first).not.toMatch(/Result: removed/);
  });

  it("with toolgate: the run stops at the threshold and toolgate run exits 6", () => {
    const calls = guarded.fake.servedToolUses().length;
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(ATTEMPTS);
    expect(guarded.run.exitCode).toBe(6);
    expect(guarded.run.stderr).toContain("toolgate aborted the run");
    expect(guarded.run.stderr).toContain("Bash(rm:*)");
    // the refusal that reached the threshold answered continue: false, which fails the Skill call that loaded it
    expect(guarded.fake.toolResults().map((result) => result.text)).toContainEqual(
      expect.stringMatching(/^Operation stopped by hook: toolgate aborted the run: Bash was denied/),
    );
  });

  it("with toolgate: each refused command is recorded once, as a shell call with the skill-shell label", async () => {
    const { store } = await openDrainedStore({
      env: { TOOLGATE_DB: guarded.database, HOME: guarded.workspace.home },
    });
    try {
      const rows = await store.denials.query({});
      const skillRows = rows.filter((row) => row.toolUseId.startsWith("skill-shell:"));
      expect(skillRows.length).toBeGreaterThanOrEqual(2);
      expect(new Set(rows.map((row) => row.toolUseId)).size).toBe(rows.length);
      for (const row of skillRows) {
        expect(row).toMatchObject({ tool: "Bash", canonicalTool: "shell", toolFamily: "shell", host: "claude-code" });
        // Claude Code's id for the command: the Skill call's id and the command's place in the skill
        expect(row.toolUseId).toMatch(/^skill-shell:toolu_main_\d{3}_0:preamble-0$/);
        expect((row.input as { command?: string }).command).toBe("rm -rf build && echo removed");
      }
      expect(skillRows.some((row) => row.rule === "Bash(rm:*)" && row.source === "rule")).toBe(true);
    } finally {
      await store.close();
    }
  });
});
