/**
 * The resident hook under the real Claude Code binary (docs/resident-hook.md): the stubborn `rm -rf` scenario with
 * every hook event answered by the resident server through the bash client. The installed command names a node
 * that does not exist, so an event the server did not answer could only have been blocked by the client (exit 2,
 * "could not run"): the run stopping at toolgate's threshold, with the guidance and one record per denial, is the
 * server's work.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { residentServerPid, serverOnlyCommand, startResidentServer, stopResidentServer } from "../resident-server.js";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { stubbornRemover } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate } from "./toolgate-cli.js";

const ATTEMPTS = 25;

describe("Claude Code with the resident hook: stubborn rm -rf", () => {
  let workspace: Workspace;
  let database: string;
  let install: ReturnType<typeof runToolgate>;
  let fake: Awaited<ReturnType<typeof startFakeAnthropic>>;
  let run: ClaudeRunResult;

  beforeAll(async () => {
    assertBuilt();
    workspace = createWorkspace("toolgate-claude-resident-");
    workspace.writeProjectSettings({ permissions: { deny: ["Bash(rm:*)"] } });
    database = join(workspace.root, "toolgate.db");
    await startResidentServer({
      host: "claude-code",
      event: { session_id: "warm-up", cwd: workspace.project, hook_event_name: "UserPromptSubmit", prompt: "hello" },
      cwd: workspace.project,
      env: { PATH: process.env["PATH"], HOME: workspace.home, TOOLGATE_DB: database },
      home: workspace.home,
    });
    install = runToolgate({
      args: ["install", "claude-code", "--project", "--command", serverOnlyCommand("claude-code")],
      cwd: workspace.project,
      env: { HOME: workspace.home },
    });
    fake = await startFakeAnthropic({
      conversations: { main: stubbornRemover({ attempts: ATTEMPTS, directory: workspace.project }) },
    });
    run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Clean the build directories.",
      maxTurns: 60,
      env: { TOOLGATE_DB: database },
    });
  });

  afterAll(async () => {
    stopResidentServer(workspace?.home);
    await fake?.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("a server answers, started by the first event", () => {
    expect(install.exitCode).toBe(0);
    expect(residentServerPid(workspace.home)).toBeGreaterThan(0);
    expect(run.stderr).not.toContain("could not run");
  });

  it("stops the run at toolgate's threshold instead of 25 denials", () => {
    const calls = fake.servedToolUses().length;
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(ATTEMPTS);
    expect(run.result?.terminal_reason).toBe("hook_stopped");
  });

  it("tells the model toolgate's guidance in the tool results", () => {
    const results = fake.toolResults();
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.text).toMatch(/^PreToolUse:Bash hook error: .*\[toolgate\]/s);
      expect(result.text).toContain("Bash(rm:*)");
    }
  });

  it("records every denial once in the store", async () => {
    const { store } = await openDrainedStore({ env: { TOOLGATE_DB: database, HOME: workspace.home } });
    try {
      const rows = await store.denials.query({});
      expect(rows).toHaveLength(fake.servedToolUses().length);
      expect(new Set(rows.map((row) => row.toolUseId)).size).toBe(rows.length);
      expect(rows.every((row) => row.rule === "Bash(rm:*)" && row.source === "rule")).toBe(true);
    } finally {
      await store.close();
    }
  });
});
