/**
 * `copilot -p` with toolgate's hooks and nothing else, on the real GitHub Copilot CLI 1.0.102: no `toolgate run`, no
 * `CI`. Copilot tells its hooks nothing about the mode, so toolgate reads the command line of the Copilot process that
 * spawned the hook: `-p`, or a prompt piped to its stdin, is headless, and a stubborn model is stopped at the
 * threshold. With `TOOLGATE_INTERACTIVE=1`
 * the same run is taken as one a person watches: toolgate asks, Copilot `-p` declines every ask, and the model makes
 * all six attempts, as every `-p` run did before toolgate read the command line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { STUBBORN_RM } from "../stubborn-rm.js";
import {
  type CopilotRun,
  type CopilotWorkspace,
  copilotWorkspace,
  installToolgate,
  runCopilot,
  shellScript,
  toolResultsPerRequest,
} from "./run-copilot.js";

const ARGS = ["--allow-tool=shell", "--deny-tool=shell(rm)"];

describe("Copilot CLI 1.0.102: a headless run known from Copilot's own command line", () => {
  const workspaces: CopilotWorkspace[] = [];
  const runs: CopilotRun[] = [];

  async function hookedRun(env: Record<string, string>, promptOnStdin = false): Promise<CopilotRun> {
    const workspace = copilotWorkspace();
    workspaces.push(workspace);
    const installed = installToolgate(workspace);
    expect(installed.exitCode, installed.stderr).toBe(0);
    const run = await runCopilot({
      workspace,
      script: shellScript(STUBBORN_RM),
      copilotArgs: ARGS,
      env,
      promptOnStdin,
    });
    runs.push(run);
    return run;
  }

  let headless: CopilotRun;
  let piped: CopilotRun;
  let watched: CopilotRun;
  beforeAll(async () => {
    assertBuilt();
    headless = await hookedRun({});
    piped = await hookedRun({}, true);
    watched = await hookedRun({ TOOLGATE_INTERACTIVE: "1" });
  }, 500_000);

  afterAll(async () => {
    for (const run of runs) await run.fake.close();
    for (const workspace of workspaces) workspace.remove();
    removeSnapshot();
  });

  const allResults = (run: CopilotRun) => toolResultsPerRequest(run.fake).at(-1) ?? [];

  it("copilot -p: after Copilot's two refusals, toolgate refuses the third call with the stop", () => {
    expect(headless.timedOut).toBe(false);
    expect(headless.victimSurvived).toBe(true);
    const results = allResults(headless);
    expect(results).toHaveLength(STUBBORN_RM.length);
    expect(results[0]).toContain("denied due to the following rules: `shell(rm)`");
    expect(results[1]).toContain("denied due to the following rules: `shell(rm)`");
    // without `toolgate run` Copilot goes on asking the model: each later call is refused with the stop
    for (const text of results.slice(2)) {
      expect(text).toMatch(
        /^Denied by preToolUse hook: \[toolgate\] The run is being stopped: "rm" was denied 2 times/,
      );
    }
  });

  it("a prompt piped to copilot's stdin (no -p): Copilot runs it headless, and toolgate stops it the same way", () => {
    expect(piped.timedOut).toBe(false);
    expect(piped.victimSurvived).toBe(true);
    const results = allResults(piped);
    expect(results).toHaveLength(STUBBORN_RM.length);
    for (const text of results.slice(2)) expect(text).toContain("[toolgate] The run is being stopped");
  });

  it("the same run with TOOLGATE_INTERACTIVE=1: toolgate asks, Copilot cannot ask anyone, and the run is not stopped", () => {
    expect(watched.timedOut).toBe(false);
    expect(watched.victimSurvived).toBe(true);
    const results = allResults(watched);
    expect(results).toHaveLength(STUBBORN_RM.length);
    for (const text of results) expect(text).toContain("(unable to ask user for confirmation): [toolgate]");
    expect(results.join("\n")).not.toContain("The run is being stopped");
  });
});
