import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import { residentServerPid, serverOnlyCommand, startResidentServer, stopResidentServer } from "../resident-server.js";
import { type CodexRun, type CodexWorld, createCodexWorld, runCodex, toolgateIn } from "./codex-workspace.js";
import { toolOutputs } from "./fake-responses.js";

/**
 * The resident hook (docs/resident-hook.md) under the real Codex 0.171.0 binary: the stubborn forbidden `rm -rf`,
 * every hook event answered by the resident server through the bash client. The installed command names a node that
 * does not exist, so an event the server did not answer would have been blocked by the client ("could not run"):
 * the run ending at toolgate's threshold with exit 6 is the server's work.
 */
const FORBID_RM = 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden here")\n';
const commands = Array.from({ length: 20 }, () => "rm -rf victim");

describe("Codex 0.171.0 with the resident hook: a stubborn model retrying a forbidden rm -rf", () => {
  let world: CodexWorld;
  let run: CodexRun;
  let install: ReturnType<typeof toolgateIn>;

  beforeAll(async () => {
    assertBuilt();
    world = await createCodexWorld({ commands, rules: FORBID_RM });
    await startResidentServer({
      host: "codex",
      event: {
        session_id: "warm-up",
        turn_id: "turn-0",
        cwd: world.project,
        model: "fake-model",
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: "hello",
      },
      cwd: world.project,
      env: world.env,
      home: world.home,
    });
    install = toolgateIn(world, ["install", "codex", "--user", "--command", serverOnlyCommand("codex")]);
    run = await runCodex(world, { viaToolgateRun: true });
  }, 480_000);

  afterAll(async () => {
    stopResidentServer(world?.home);
    await world?.remove();
    removeSnapshot();
  });

  test("a server was running, and install trusted the client's command through Codex's own interface", () => {
    expect(residentServerPid(world.home)).toBeGreaterThan(0);
    expect(install.exitCode).toBe(0);
    expect(install.stderr).toMatch(/Trusted toolgate's 5 hooks through Codex's own interface/);
  });

  test("the run stops at the threshold with exit 6, as with the Node hook", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).not.toContain("could not run");
    expect(run.stderr).toMatch(/toolgate run: 3 denied calls; toolgate aborted the run\./);
    expect(world.fake.requests).toHaveLength(3);
    const [first] = toolOutputs(world.fake.requests[1] ?? {});
    expect(first).toMatch(/^Command blocked by PreToolUse hook: \[toolgate\]/);
  });
});
