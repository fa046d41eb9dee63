import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot, toolgateCommand } from "../claude/toolgate-cli.js";
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

  const serverPid = (): number | undefined => {
    const directory = join(world.home, ".toolgate", "run");
    const name = existsSync(directory) ? readdirSync(directory).find((file) => file.endsWith(".server")) : undefined;
    return name === undefined ? undefined : Number(readFileSync(join(directory, name), "utf8").trim().split(" ")[2]);
  };

  beforeAll(async () => {
    assertBuilt();
    world = await createCodexWorld({ commands, rules: FORBID_RM });
    const [node, main] = toolgateCommand();
    const client = join(dirname(dirname(main!)), "hook", "toolgate-hook.sh");
    // one event through the client with a real node: the Node hook answers it and starts the server
    const warmUp = spawnSync("bash", [client, node!, "hook", "codex"], {
      cwd: world.project,
      input: JSON.stringify({
        session_id: "warm-up",
        turn_id: "turn-0",
        cwd: world.project,
        model: "fake-model",
        permission_mode: "default",
        hook_event_name: "UserPromptSubmit",
        prompt: "hello",
      }),
      env: { ...world.env, TOOLGATE_HOOK_SERVER_IDLE_MS: "300000" },
      encoding: "utf8",
    });
    expect(warmUp.status, warmUp.stderr).toBe(0);
    const deadline = Date.now() + 20_000;
    while (serverPid() === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    install = toolgateIn(world, [
      "install",
      "codex",
      "--user",
      "--command",
      `bash "${client}" /nonexistent/node hook codex`,
    ]);
    run = await runCodex(world, { viaToolgateRun: true });
  }, 480_000);

  afterAll(async () => {
    const pid = world === undefined ? undefined : serverPid();
    if (pid !== undefined) {
      try {
        process.kill(pid);
      } catch {
        // gone already
      }
    }
    await world?.remove();
    removeSnapshot();
  });

  test("a server was running, and install trusted the client's command through Codex's own interface", () => {
    expect(serverPid()).toBeGreaterThan(0);
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
