/**
 * Replays every case of test/fixtures/conformance/claude-code-rules.json (recorded on Claude Code 2.1.330 by the
 * team's shared conformance set) on the pinned real binary: the same rules, CLI flags and user settings, each call
 * one scripted turn, and the text the model saw must be the recorded one, word for word. The policy conformance
 * test (test/policy/claude-code-conformance.test.ts) holds toolgate to these cases; this one holds the cases to the
 * binary, so a Claude Code upgrade that changes one fails here before the fixture can go stale.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { createWorkspace, runClaude, type Workspace } from "./run-claude.js";

interface ConformanceCall {
  tool: string;
  input: Record<string, unknown>;
  outcome: string;
  modelSaw: string;
}
interface ConformanceCase {
  case: string;
  rules: { deny: string[]; ask: string[]; allow: string[] };
  cliArgs: string[];
  userSettings: unknown;
  workspaceTrusted: boolean;
  calls: ConformanceCall[];
}

const FIXTURE = join(import.meta.dirname, "..", "..", "fixtures", "conformance", "claude-code-rules.json");
const { cases } = (await import(FIXTURE, { with: { type: "json" } })).default as { cases: ConformanceCase[] };

/** The longest text the shared recorder kept (the dontAsk text, cut there). */
const RECORDED_CHARACTERS = 240;

interface Replayed {
  workspace: Workspace;
  fake: FakeAnthropic;
  /** the recorded text with the placeholders filled in for this run */
  expected: string[];
  saw: string[];
}

/** The placeholders of the fixture (its `placeholders` note), filled in for one workspace. */
function filler(workspace: Workspace) {
  const paths: Record<string, string> = {
    "<project>": workspace.project,
    "<home>": workspace.home,
    "<outside>": join(workspace.root, "outside"),
    "<tmp>": join(workspace.root, "scratch"),
  };
  return <T>(value: T): T => {
    let text = JSON.stringify(value);
    for (const [placeholder, path] of Object.entries(paths)) text = text.split(placeholder).join(path);
    return JSON.parse(text) as T;
  };
}

/** The files a case reads: what an allowed Read saw (`1\tcontent`), a line for the others. */
function writeReadTargets(calls: readonly ConformanceCall[]): void {
  for (const call of calls) {
    const path = call.tool === "Read" ? call.input["file_path"] : undefined;
    if (typeof path !== "string") continue;
    const content =
      call.outcome === "allow"
        ? call.modelSaw
            .split("\n")
            .map((line) => line.replace(/^\d+\t/, ""))
            .join("\n")
        : "x\n";
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

async function replay(recorded: ConformanceCase): Promise<Replayed> {
  const workspace = createWorkspace("toolgate-conformance-");
  const fill = filler(workspace);
  const conformance = fill(recorded);
  mkdirSync(join(workspace.root, "outside"), { recursive: true });
  mkdirSync(join(workspace.root, "scratch"), { recursive: true });
  if (conformance.workspaceTrusted) workspace.trustProject();
  workspace.writeProjectSettings({ permissions: conformance.rules });
  if (conformance.userSettings !== null) {
    mkdirSync(join(workspace.home, ".claude"), { recursive: true });
    writeFileSync(join(workspace.home, ".claude", "settings.json"), JSON.stringify(conformance.userSettings));
  }
  workspace.writeFile("secret.env", "TOKEN=not-a-real-one\n");
  writeReadTargets(conformance.calls);
  const fake = await startFakeAnthropic({
    conversations: { main: conformance.calls.map((call) => ({ toolUses: [{ name: call.tool, input: call.input }] })) },
  });
  await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Run the calls.",
    args: conformance.cliArgs,
    maxTurns: conformance.calls.length + 5,
  });
  const results = new Map(fake.toolResults().map((result) => [result.toolUseId, result.text]));
  const saw = fake.servedToolUses().map((use) => results.get(use.id) ?? "(no tool result)");
  return { workspace, fake, expected: conformance.calls.map((call) => call.modelSaw), saw };
}

describe("Claude Code conformance cases, replayed on the pinned binary", () => {
  const replayed = new Map<string, Replayed>();

  beforeAll(async () => {
    // three runs at a time: the machine has two cores and other suites run beside this one
    const queue = [...cases];
    const worker = async () => {
      for (let next = queue.shift(); next !== undefined; next = queue.shift())
        replayed.set(next.case, await replay(next));
    };
    await Promise.all([worker(), worker(), worker()]);
  }, 600_000);

  afterAll(async () => {
    for (const { fake, workspace } of replayed.values()) {
      await fake.close();
      workspace.remove();
    }
  });

  it("has every case", () => {
    expect(cases.length).toBeGreaterThanOrEqual(25);
    expect(replayed.size).toBe(cases.length);
  });

  it.each(cases.map((recorded) => [recorded.case]))("%s: the model sees what was recorded", (name) => {
    const run = replayed.get(name);
    expect(run).toBeDefined();
    // the shared recorder kept at most 240 characters of a text: a text that long is compared as a prefix
    const seen = run?.saw.map((text, index) => {
      const expected = run.expected[index] ?? "";
      return expected.length >= RECORDED_CHARACTERS && text.startsWith(expected) ? expected : text;
    });
    expect(seen).toEqual(run?.expected);
  });
});
