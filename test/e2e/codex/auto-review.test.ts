/**
 * Codex's auto-review (its Guardian reviewer, `approvals_reviewer = "auto_review"`) rejecting an approval request, on
 * the real Codex 0.171.0 binary with `toolgate install codex --user`: the scripted model asks to run `rm -rf` outside
 * the sandbox, the scripted reviewer answers `deny` with a rationale, and Codex hands the model its rejection text.
 * 0.171.0 appends the model's own `rejection_instructions` where its model catalog has them (`gpt-6.2-astra`: the
 * reworded "Do not bypass this rejection ... Continue with any materially safer alternative ..."), else its built-in
 * instructions. Either way toolgate records one classifier denial (from the rollout) that carries the rationale.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import {
  type CodexRun,
  type CodexWorld,
  createCodexWorld,
  recordsOf,
  runCodex,
  sessionIdOf,
  toolgateIn,
} from "./codex-workspace.js";
import { toolOutputs } from "./fake-responses.js";

const RATIONALE = "Deleting the victim directory is destructive and the user did not ask for it.";
const REWORDED =
  "Do not bypass this rejection through a workaround or indirect execution. Continue with any materially safer alternative and complete unaffected work without asking for confirmation. Report anything that remains blocked, and ask for explicit approval only if completion requires the rejected action, after explaining its specific risk.";
const BUILT_IN =
  "The agent must not attempt to achieve the same outcome via workaround, indirect execution, or policy circumvention.";

interface Scenario {
  world: CodexWorld;
  run: CodexRun;
  records: Record<string, unknown>[];
  outputs: string[];
}

async function scenario(model: string): Promise<Scenario> {
  const world = await createCodexWorld({
    commands: ["rm -rf victim"],
    model,
    autoReview: { outcome: "deny", rationale: RATIONALE },
  });
  const install = toolgateIn(world, ["install", "codex", "--user"]);
  expect(install.exitCode, install.stderr).toBe(0);
  const run = await runCodex(world, { env: { TOOLGATE_DENY_THRESHOLD: "10", TOOLGATE_DENY_THRESHOLD_SHELL: "10" } });
  const outputs = world.fake.requests.flatMap((request) => toolOutputs(request));
  return { world, run, records: recordsOf(world, sessionIdOf(run)), outputs };
}

describe("Codex 0.171.0 auto-review rejections, with toolgate's hooks", () => {
  let reworded: Scenario;
  let builtIn: Scenario;

  beforeAll(async () => {
    assertBuilt();
    [reworded, builtIn] = await Promise.all([scenario("gpt-6.2-astra"), scenario("fake-model")]);
  }, 300_000);

  afterAll(async () => {
    for (const done of [reworded, builtIn]) await done?.world.remove();
    removeSnapshot();
  });

  test.each([
    ["a model with catalog instructions (0.171.0's rewording)", () => reworded, REWORDED],
    ["a model Codex does not know (its built-in instructions)", () => builtIn, BUILT_IN],
  ])("%s: the model reads the rejection, the command does not run", (_, get, instructions) => {
    const { run, outputs, world } = get();
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
    const rejection = outputs.find((output) => output.includes("This action was rejected due to unacceptable risk."));
    expect(rejection).toBeDefined();
    expect(rejection).toContain(RATIONALE);
    expect(rejection).toContain(instructions);
    expect(existsSync(join(world.project, "victim", "keep.txt"))).toBe(true);
  });

  test.each([
    ["reworded", () => reworded],
    ["built-in", () => builtIn],
  ])("%s: toolgate records one classifier denial, the reviewer's rationale in its reason", (_, get) => {
    const { records } = get();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ source: "classifier", tool: "Bash" });
    expect(String(records[0]?.["reason"])).toContain(`Reason: ${RATIONALE}`);
  });
});
