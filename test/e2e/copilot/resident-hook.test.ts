/**
 * The resident hook (docs/resident-hook.md) under the real GitHub Copilot CLI 1.0.102: the stubborn `rm` that
 * Copilot's own `--deny-tool=shell(rm)` refuses, every hook event answered by the resident server through the bash
 * client (Copilot's hook commands name their event last: `hook copilot <event>`). The installed command names a node
 * that does not exist, so an event the server did not answer would have been blocked by the client ("could not run").
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import type { Script } from "../opencode/fake-openai.js";
import { toolResults } from "../opencode/fake-openai.js";
import { residentServerPid, serverOnlyCommand, startResidentServer, stopResidentServer } from "../resident-server.js";
import {
  type CopilotRun,
  type CopilotWorkspace,
  copilotWorkspace,
  runCopilot,
  toolResultsPerRequest,
} from "./run-copilot.js";

const STUBBORN_RM = ["rm -rf victim", "rm -rf ./victim", "rm -r victim", "rm -rf victim/", "rm -fr victim"];
const ARGS = ["--allow-tool=shell", "--deny-tool=shell(rm)"];

function shellScript(commands: readonly string[]): Script {
  return (request) => {
    const command = commands[toolResults(request)];
    if (command === undefined) return { kind: "text", text: "FINAL: I could not do it." };
    return { kind: "tools", calls: [{ tool: "bash", args: { command, description: "Delete the directory" } }] };
  };
}

describe("Copilot CLI 1.0.102 with the resident hook: a stubborn rm denied by Copilot's own rule", () => {
  let workspace: CopilotWorkspace;
  let run: CopilotRun;

  beforeAll(async () => {
    assertBuilt();
    workspace = copilotWorkspace();
    const payload = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "copilot", "post-tool-use.json"), "utf8"),
    ) as Record<string, unknown>;
    await startResidentServer({
      host: "copilot",
      eventName: "postToolUse",
      event: { ...payload, sessionId: "warm-up", cwd: workspace.project },
      cwd: workspace.project,
      env: workspace.env,
      home: workspace.home,
    });
    const installed = runToolgate({
      args: ["install", "copilot", "--user", "--command", serverOnlyCommand("copilot")],
      cwd: workspace.project,
      env: workspace.env,
    });
    expect(installed.exitCode, installed.stderr).toBe(0);
    run = await runCopilot({ workspace, script: shellScript(STUBBORN_RM), copilotArgs: ARGS, viaToolgate: true });
  }, 500_000);

  afterAll(async () => {
    stopResidentServer(workspace?.home);
    await run?.fake.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("stops at the threshold as with the Node hook: toolgate run exits 6, no Copilot process is left", () => {
    expect(residentServerPid(workspace.home)).toBeGreaterThan(0);
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(6);
    expect(run.stderr).not.toContain("could not run");
    expect(run.victimSurvived).toBe(true);
    const calls = run.fake.agentRequests().filter((entry) => entry.reply.kind === "tools");
    expect(calls.length).toBeGreaterThanOrEqual(3);
    expect(calls.length).toBeLessThanOrEqual(4);
    expect(run.stderr).toContain("toolgate aborted the run: bash was denied 2 times");
    expect(run.leftover).toEqual([]);
    const results = toolResultsPerRequest(run.fake).find((texts) => texts.length === 3) ?? [];
    expect(results[2]).toMatch(/^Denied by preToolUse hook: \[toolgate\] The run is being stopped/);
  });
});
