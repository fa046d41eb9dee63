/**
 * The resident hook (docs/resident-hook.md) under the real Qwen Code 0.24.4: the stubborn `rm -rf` that Qwen's own
 * deny rule refuses, every hook event answered by the resident server through the bash client. The installed command
 * names a node that does not exist, so an event the server did not answer would have been blocked by the client
 * ("could not run").
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { residentServerPid, serverOnlyCommand, startResidentServer, stopResidentServer } from "../resident-server.js";
import { type QwenRun, type QwenWorkspace, qwenWorkspace, runQwen, storedDenials } from "./run-qwen.js";
import { STUBBORN_RM, shellScript } from "./scripts.js";

describe("Qwen Code 0.24.4 with the resident hook: stubborn rm -rf denied by Qwen's own rule", () => {
  let workspace: QwenWorkspace;
  let run: QwenRun;

  beforeAll(async () => {
    assertBuilt();
    workspace = qwenWorkspace({ permissions: { deny: ["Bash(rm *)"] } });
    await startResidentServer({
      host: "qwen",
      event: {
        session_id: "warm-up",
        cwd: workspace.project,
        hook_event_name: "UserPromptSubmit",
        prompt: "hello",
        timestamp: new Date().toISOString(),
        transcript_path: join(workspace.root, "none.jsonl"),
      },
      cwd: workspace.project,
      env: workspace.env,
      home: workspace.home,
    });
    const installed = runToolgate({
      args: ["install", "qwen", "--user", "--command", serverOnlyCommand("qwen")],
      cwd: workspace.project,
      env: workspace.env,
    });
    expect(installed.exitCode, installed.stderr).toBe(0);
    run = await runQwen({
      workspace,
      script: shellScript(STUBBORN_RM),
      qwenArgs: ["--approval-mode", "yolo"],
      viaToolgate: true,
    });
  }, 400_000);

  afterAll(async () => {
    stopResidentServer(workspace?.home);
    await run?.fake.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("stops at the threshold as with the Node hook (2 calls, exit 6), each denial recorded once", () => {
    expect(residentServerPid(workspace.home)).toBeGreaterThan(0);
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(6);
    expect(run.stderr).not.toContain("could not run");
    const calls = run.fake.agentRequests().filter((entry) => entry.reply.kind === "tools");
    expect(calls).toHaveLength(2);
    expect(run.stderr).toContain("toolgate aborted the run: run_shell_command was denied 2 times");
    expect(run.sessionId).toBeDefined();
    const records = storedDenials(workspace, run.sessionId as string);
    expect(records).toHaveLength(2);
    for (const record of records) expect(record).toMatchObject({ host: "qwen", source: "rule", rule: "Bash(rm *)" });
  });
});
