/**
 * The loop detector through the installed hooks: a model repeating the exact same (allowed, failing) call is
 * steered, then blocked in PreToolUse, and the run stops well before the script ends.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { identicalRetries } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "./toolgate-cli.js";

const ATTEMPTS = 15;

describe("Claude Code with toolgate hooks: identical retries", () => {
  let workspace: Workspace;
  let fake: FakeAnthropic;
  let run: ClaudeRunResult;

  beforeAll(async () => {
    assertBuilt();
    workspace = createWorkspace();
    const database = join(workspace.root, "toolgate.db");
    const env = { TOOLGATE_DB: database, HOME: workspace.home };
    expect(runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env }).exitCode).toBe(0);
    fake = await startFakeAnthropic({
      conversations: { main: identicalRetries({ attempts: ATTEMPTS, command: "cat missing-file.txt" }) },
    });
    run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Show the file.",
      maxTurns: 40,
      env: { TOOLGATE_DB: database },
      wrapper: toolgateCommand("run", "--"),
    });
  });

  afterAll(async () => {
    removeSnapshot();
    console.info(
      `[effectiveness] identical failing call x${ATTEMPTS}: ${fake?.servedToolUses().length} calls, exit ${run?.exitCode}`,
    );
    await fake?.close();
    workspace?.remove();
  });

  it("steers through PostToolUseFailure context, then blocks the call in PreToolUse", () => {
    expect(fake.servedToolUses().length).toBeLessThan(ATTEMPTS);
    const steering = fake
      .contextTexts()
      .filter((text) => text.startsWith("PostToolUseFailure:Bash hook additional context: [toolgate]"));
    expect(steering.length).toBeGreaterThan(0);
    const blocked = fake
      .toolResults()
      .filter((result) => result.text.startsWith("PreToolUse:Bash hook error: [toolgate]"));
    expect(blocked.length).toBeGreaterThan(0);
    // the calls before the block really ran (and failed): toolgate blocks only once the loop is clear
    expect(fake.toolResults()[0]?.text).toContain("No such file or directory");
  });

  it("records the loop denials and toolgate run exits 6 (aborted)", async () => {
    // the hooks spool records first; read them the way `toolgate report` does (the spool drained into the store)
    const { store } = await openDrainedStore({
      env: { TOOLGATE_DB: join(workspace.root, "toolgate.db"), HOME: workspace.home },
    });
    try {
      const rows = await store.denials.query({});
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.source === "loop")).toBe(true);
      console.info(`[effectiveness] loop denials recorded: ${rows.length}`);
    } finally {
      await store.close();
    }
    expect(run.exitCode).toBe(6);
  });
});
