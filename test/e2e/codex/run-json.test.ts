import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { type CodexRun, type CodexWorld, createCodexWorld, runCodex } from "./codex-workspace.js";

/**
 * `toolgate run -- codex exec --json ...` with no toolgate hook installed: Codex 0.171.0's JSON stream shows no
 * denied call, so `run` finds the session's rollout (by the stream's `thread.started` id) and reports the refusals
 * from it, with an honest exit code (5).
 */
describe("toolgate run -- codex exec --json, without hooks", () => {
  let world: CodexWorld;
  let run: CodexRun;

  beforeAll(async () => {
    assertBuilt();
    world = await createCodexWorld({
      commands: ["rm -rf victim", "rm -rf ./victim"],
      rules: 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden here")\n',
    });
    run = await runCodex(world, { viaToolgateRun: true, extraArgs: ["--json"] });
  }, 180_000);

  afterAll(async () => {
    await world?.remove();
    removeSnapshot();
  });

  test("the stream itself shows no denied call", () => {
    expect(run.stdout).toContain('"type":"thread.started"');
    expect(run.stdout).not.toContain("rejected");
  });

  test("run reports both refusals from the rollout and exits 5", () => {
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain("toolgate run: 2 denied calls.");
    expect(run.stderr).toContain("rm -rf victim");
    expect(run.stderr).toContain("rm -rf ./victim");
    expect(run.stderr).not.toContain("no toolgate hook ran");
  });
});
