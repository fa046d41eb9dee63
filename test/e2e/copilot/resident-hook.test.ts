/**
 * The resident hook (docs/resident-hook.md) under the real GitHub Copilot CLI 1.0.102: the stubborn `rm` that
 * Copilot's own `--deny-tool=shell(rm)` refuses, every hook event answered by the resident server through the bash
 * client (Copilot's hook commands name their event last: `hook copilot <event>`). The installed command names a node
 * that does not exist, so an event the server did not answer would have been blocked by the client ("could not run").
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";
import type { Script } from "../opencode/fake-openai.js";
import { toolResults } from "../opencode/fake-openai.js";
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

  const serverPid = (): number | undefined => {
    const directory = join(workspace.home, ".toolgate", "run");
    const name = existsSync(directory) ? readdirSync(directory).find((file) => file.endsWith(".server")) : undefined;
    return name === undefined ? undefined : Number(readFileSync(join(directory, name), "utf8").trim().split(" ")[2]);
  };

  beforeAll(async () => {
    assertBuilt();
    workspace = copilotWorkspace();
    const [node, main] = toolgateCommand();
    const client = join(dirname(dirname(main!)), "hook", "toolgate-hook.sh");
    // one event through the client with a real node: the Node hook answers it and starts the server
    const payload = JSON.parse(
      readFileSync(join(import.meta.dirname, "..", "..", "fixtures", "copilot", "post-tool-use.json"), "utf8"),
    ) as Record<string, unknown>;
    const warmUp = spawnSync("bash", [client, node!, "hook", "copilot", "postToolUse"], {
      cwd: workspace.project,
      input: JSON.stringify({ ...payload, sessionId: "warm-up", cwd: workspace.project }),
      env: { ...workspace.env, TOOLGATE_HOOK_SERVER_IDLE_MS: "300000" },
      encoding: "utf8",
    });
    expect(warmUp.status, warmUp.stderr).toBe(0);
    const deadline = Date.now() + 20_000;
    while (serverPid() === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    const installed = runToolgate({
      args: ["install", "copilot", "--user", "--command", `bash "${client}" /nonexistent/node hook copilot`],
      cwd: workspace.project,
      env: workspace.env,
    });
    expect(installed.exitCode, installed.stderr).toBe(0);
    run = await runCopilot({ workspace, script: shellScript(STUBBORN_RM), copilotArgs: ARGS, viaToolgate: true });
  }, 500_000);

  afterAll(async () => {
    const pid = workspace === undefined ? undefined : serverPid();
    if (pid !== undefined) {
      try {
        process.kill(pid);
      } catch {
        // gone already
      }
    }
    await run?.fake.close();
    workspace?.remove();
    removeSnapshot();
  });

  it("stops at the threshold as with the Node hook: toolgate run exits 6, no Copilot process is left", () => {
    expect(serverPid()).toBeGreaterThan(0);
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
