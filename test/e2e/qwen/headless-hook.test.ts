/**
 * `qwen -p` with toolgate's hooks and nothing else, on the real Qwen Code 0.24.4 binary: no `toolgate run`, no `CI`.
 * Qwen tells its hooks nothing about the mode, so toolgate reads the command line of the Qwen process that spawned
 * the hook: `-p` is headless, and a stubborn model is stopped at the threshold. With `TOOLGATE_INTERACTIVE=1` the
 * same run is taken as one a person watches: toolgate keeps telling the model, and the run goes on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { installToolgate, modelInputs, type QwenRun, type QwenWorkspace, qwenWorkspace, runQwen } from "./run-qwen.js";
import { STUBBORN_RM, shellScript } from "./scripts.js";

describe("Qwen Code 0.24.4: a headless run known from Qwen's own command line", () => {
  const workspaces: QwenWorkspace[] = [];
  const runs: QwenRun[] = [];

  async function hookedRun(env: Record<string, string>): Promise<QwenRun> {
    const workspace = qwenWorkspace({ permissions: { deny: ["Bash(rm *)"] } });
    workspaces.push(workspace);
    const installed = installToolgate(workspace);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const run = await runQwen({
      workspace,
      script: shellScript(STUBBORN_RM),
      qwenArgs: ["--approval-mode", "yolo"],
      env,
    });
    runs.push(run);
    return run;
  }

  let headless: QwenRun;
  let watched: QwenRun;
  beforeAll(async () => {
    assertBuilt();
    headless = await hookedRun({});
    watched = await hookedRun({ TOOLGATE_INTERACTIVE: "1" });
  }, 400_000);

  afterAll(async () => {
    for (const run of runs) await run.fake.close();
    for (const workspace of workspaces) workspace.remove();
    removeSnapshot();
  });

  const calls = (run: QwenRun) => run.fake.agentRequests().filter((entry) => entry.reply.kind === "tools").length;

  it("qwen -p: stopped at the threshold after 2 denied calls, with toolgate's reason", () => {
    expect(headless.timedOut).toBe(false);
    expect(headless.victimSurvived).toBe(true);
    expect(calls(headless)).toBe(2);
    // the second call's result, as Qwen's stream-json output shows it (the model is not asked again)
    expect(headless.stdout).toContain('[toolgate] The run is being stopped: \\"rm\\" was denied 2 times.');
    // without `toolgate run` nothing can change Qwen's own exit status: it ends its turn and exits 0
    expect(headless.exitCode).toBe(0);
  });

  it("the same run with TOOLGATE_INTERACTIVE=1: not stopped, the model makes every attempt", () => {
    expect(watched.timedOut).toBe(false);
    expect(watched.victimSurvived).toBe(true);
    expect(calls(watched)).toBe(STUBBORN_RM.length);
    expect(watched.stdout).not.toContain("The run is being stopped");
    expect(modelInputs(watched.fake).at(-1)?.toolResults.at(-1)).toContain("[toolgate]");
  });
});
