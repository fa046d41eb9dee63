import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { type FakeAnthropic, type ScriptedTurn, startFakeAnthropic } from "./fake-anthropic.js";
import { CANDIDATES } from "./read-only-candidates.js";
import { claudeBinary, createWorkspace, runClaude } from "./run-claude.js";

/**
 * Probes which Bash commands the real Claude Code binary runs without approval: headless (`-p`), the default
 * permission mode, no permission rules, a trusted project. The scripted model issues every candidate
 * (read-only-candidates.ts) as a Bash call, BATCH at a time as parallel tool uses, and the probe records whether each
 * ran or was refused (an ask, which headless mode turns into a denial) into
 * test/fixtures/conformance/claude-code-read-only.json. test/policy/claude-code-read-only.test.ts then holds the
 * defaults preset to it. Run it when the pinned Claude Code version changes:
 *   TOOLGATE_RECORD=1 npx vitest run test/e2e/claude/probe-read-only.test.ts
 */
const recording = process.env.TOOLGATE_RECORD === "1";
const fixture = resolve("test/fixtures/conformance/claude-code-read-only.json");
const BATCH = 30;

function batches(commands: string[]): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  for (let start = 0; start < commands.length; start += BATCH) {
    const toolUses = commands.slice(start, start + BATCH).map((command) => ({
      name: "Bash",
      input: { command, description: "probe", timeout: 20_000 },
    }));
    turns.push({ toolUses });
  }
  return turns;
}

function versionOf(binary: string): string {
  return execFileSync(binary, ["--version"], { encoding: "utf8" }).trim().split(" ")[0] ?? "";
}

type Outcome = { outcome: "allow" | "ask"; modelSaw?: string };

/** One run of the binary over the candidates in the given order: each command's outcome. */
async function probe(commands: string[]): Promise<Map<string, Outcome>> {
  const workspace = createWorkspace("toolgate-probe-read-only-");
  let fake: FakeAnthropic | undefined;
  try {
    workspace.trustProject();
    workspace.writeFile("README.md", "probe readme\nsecond line\n");
    workspace.writeFile("data.csv", "b,2\na,1\n");
    workspace.writeFile("data.json", '{"name":"probe"}\n');
    workspace.writeFile("src/a.ts", "export const a = 1;\n");
    const turns = batches(commands);
    fake = await startFakeAnthropic({ conversations: { main: turns } });
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Inspect the machine.",
      maxTurns: turns.length + 5,
      timeoutMs: 800_000,
    });
    expect(run.timedOut, run.stderr).toBe(false);
    const served = fake.servedToolUses();
    expect(served.map((use) => use.input.command)).toEqual(commands);
    const results = new Map(fake.toolResults().map((result) => [result.toolUseId, result]));
    const denied = new Set(
      ((run.result?.permission_denials ?? []) as { tool_use_id: string }[]).map((denial) => denial.tool_use_id),
    );
    const outcomes = new Map<string, Outcome>();
    for (const use of served) {
      const result = results.get(use.id);
      if (result === undefined) throw new Error(`no tool result for ${String(use.input.command)}`);
      // the workspace path differs per run: keep the text comparable
      const text = result.text.split(workspace.project).join("<project>").slice(0, 300);
      outcomes.set(
        String(use.input.command),
        denied.has(use.id) ? { outcome: "ask", modelSaw: text } : { outcome: "allow" },
      );
    }
    return outcomes;
  } finally {
    await fake?.close();
    workspace.remove();
  }
}

describe.skipIf(!recording)("probe: Claude Code's read-only Bash commands", () => {
  test("records which candidates run without approval (the same in either order)", { timeout: 900_000 }, async () => {
    const order = CANDIDATES.map((candidate) => candidate.command);
    const forward = await probe(order);
    const backward = await probe([...order].reverse());
    const disagreements = order.filter((command) => forward.get(command)?.outcome !== backward.get(command)?.outcome);
    expect(disagreements).toEqual([]);
    const commands = CANDIDATES.map((candidate) => ({
      command: candidate.command,
      ...(candidate.control ? { control: true } : {}),
      ...forward.get(candidate.command),
    }));
    const document = {
      source:
        "Observed with the real Claude Code binary run headless (-p, stream-json), default permission mode, no " +
        "permission rules, trusted project, against the scripted model server on loopback; each command a Bash " +
        `tool use, ${BATCH} parallel tool uses per turn, run twice (forward and reversed order) with the same result. ` +
        "allow = it ran; ask = it needed approval (headless: denied). control = chosen as not read-only. " +
        "Recorded by test/e2e/claude/probe-read-only.test.ts.",
      claudeCodeVersion: versionOf(claudeBinary()),
      recordedAt: new Date().toISOString().slice(0, 10),
      commands,
    };
    writeFileSync(fixture, `${JSON.stringify(document, null, 1)}\n`);
  });
});
