import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import {
  type CodexRun,
  type CodexWorld,
  createCodexWorld,
  recordsOf,
  rolloutOf,
  runCodex,
  sessionIdOf,
  toolgateIn,
} from "./codex-workspace.js";
import { requestText, toolOutputs } from "./fake-responses.js";

/**
 * The headline scenario on the real Codex 0.171.0 binary: a stubborn model retries a `forbidden` `rm -rf`
 * 20 times. Without toolgate every try is denied and `codex exec` still exits 0; with `toolgate install codex` and
 * `toolgate run`, the run stops at the threshold with exit 6 and the model's requests carry toolgate's guidance.
 * Figures are recorded in BENCHMARKS.md (## Codex CLI).
 */
const ATTEMPTS = 20;
const FORBID_RM = 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "rm is forbidden here")\n';
const commands = Array.from({ length: ATTEMPTS }, () => "rm -rf victim");

describe("Codex 0.171.0: a stubborn model retrying a forbidden rm -rf", () => {
  let without: { world: CodexWorld; run: CodexRun };
  let withToolgate: { world: CodexWorld; run: CodexRun; install: ReturnType<typeof toolgateIn> };
  let ladder: { world: CodexWorld; run: CodexRun };

  beforeAll(async () => {
    assertBuilt();
    const bare = await createCodexWorld({ commands, rules: FORBID_RM });
    without = { world: bare, run: await runCodex(bare) };
    const guarded = await createCodexWorld({ commands, rules: FORBID_RM });
    const install = toolgateIn(guarded, ["install", "codex", "--user"]);
    withToolgate = { world: guarded, install, run: await runCodex(guarded, { viaToolgateRun: true }) };
    // the headless ladder instead of an abort at the threshold: fallback text, then the hard stage, then the loop stop
    const stepped = await createCodexWorld({
      commands,
      rules: FORBID_RM,
      toolgateConfig: { escalation: { headlessStrategy: "fallback" } },
    });
    toolgateIn(stepped, ["install", "codex", "--user"]);
    ladder = { world: stepped, run: await runCodex(stepped, { viaToolgateRun: true }) };
  }, 480_000);

  afterAll(async () => {
    await without?.world.remove();
    await withToolgate?.world.remove();
    await ladder?.world.remove();
    removeSnapshot();
  });

  test("without toolgate: all 20 tries are denied by Codex and the run exits 0", () => {
    const { run, world } = without;
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(world.fake.requests).toHaveLength(ATTEMPTS + 1);
    const outputs = toolOutputs(world.fake.requests.at(-1) ?? {});
    expect(outputs).toHaveLength(ATTEMPTS);
    for (const output of outputs) expect(output).toContain("rejected: rm is forbidden here");
  });

  test("install trusted toolgate's hooks through Codex's own app-server", () => {
    const { install } = withToolgate;
    expect(install.exitCode).toBe(0);
    expect(install.stderr).toMatch(/Trusted toolgate's 5 hooks through Codex's own interface/);
  });

  test("with toolgate: the run stops at the threshold with exit 6 and a summary", () => {
    const { run, world } = withToolgate;
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toMatch(/toolgate run: \d+ denied calls?; toolgate aborted the run\./);
    expect(run.stderr).toContain('prefix_rule(pattern=["rm"], decision="forbidden")');
    // far fewer model round trips than the 21 of the bare run, and always the same: the model reads the aborting
    // answer (request 3), and the next call's hook waits while toolgate run ends Codex, so no call follows
    expect(world.fake.requests).toHaveLength(3);
    expect(toolOutputs(world.fake.requests[2] ?? {}).at(-1)).toContain("The run is being stopped");
    // the two that reached the threshold, and the one the model made after reading the abort (refused, never run)
    expect(run.stderr).toMatch(/toolgate run: 3 denied calls; toolgate aborted the run\./);
    console.log(
      JSON.stringify({
        codexStubborn: {
          without: { modelRequests: without.world.fake.requests.length, exitCode: without.run.exitCode },
          withToolgate: { modelRequests: world.fake.requests.length, exitCode: run.exitCode },
          fallbackLadder: { modelRequests: ladder.world.fake.requests.length, exitCode: ladder.run.exitCode },
        },
      }),
    );
  });

  test("with the fallback ladder: the model reads the fallback text first, and the run still ends with exit 6", () => {
    const { run, world } = ladder;
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(6);
    expect(world.fake.requests.length).toBeLessThan(ATTEMPTS + 1);
    const outputs = toolOutputs(world.fake.requests.at(-1) ?? {});
    expect(outputs[1]).toMatch(/is not available in this run/);
  });

  test("the model's requests carry toolgate's guidance, not only Codex's rejection", () => {
    const { world } = withToolgate;
    const second = world.fake.requests[1] ?? {};
    const [first] = toolOutputs(second);
    expect(first).toMatch(/^Command blocked by PreToolUse hook: \[toolgate\]/);
    // toolgate's sentence names the Codex rule that decides, and tells the model not to retry
    expect(first).toContain('prefix_rule(pattern=["rm"], decision="forbidden")');
    expect(first).not.toContain("exec_command failed");
    expect(requestText(second)).toContain("[toolgate]");
  });

  test("each denial is recorded once with the Codex rule that decided, and the rollout agrees", () => {
    const { run, world } = withToolgate;
    const sessionId = sessionIdOf(run);
    const records = recordsOf(world, sessionId);
    expect(records.length).toBeGreaterThanOrEqual(1);
    expect(new Set(records.map((record) => record.toolUseId)).size).toBe(records.length);
    expect(records[0]).toMatchObject({
      host: "codex",
      tool: "Bash",
      source: "rule",
      rule: 'prefix_rule(pattern=["rm"], decision="forbidden")',
      inputSummary: "rm -rf victim",
    });
    const rollout = rolloutOf(world, sessionId);
    for (const record of records) expect(rollout).toContain(`"call_id":"${String(record.toolUseId)}"`);
  });
});
