/**
 * The headline scenario with toolgate: a stubborn scripted model retries a rule-denied `rm -rf` 25 times. With the
 * hooks `toolgate install claude-code` writes, the real binary stops at toolgate's threshold, `toolgate run` exits
 * non-zero and names the rule, and the fake model was told toolgate's guidance in the tool results.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude } from "./run-claude.js";
import { stubbornRemover } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "./toolgate-cli.js";

const ATTEMPTS = 25;

async function scenario(options: { throughRun: boolean }) {
  const workspace = createWorkspace();
  workspace.writeProjectSettings({ permissions: { deny: ["Bash(rm:*)"] } });
  const database = join(workspace.root, "toolgate.db");
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  const install = runToolgate({ args: ["install", "claude-code", "--project"], cwd: workspace.project, env });
  const fake = await startFakeAnthropic({
    conversations: { main: stubbornRemover({ attempts: ATTEMPTS, directory: workspace.project }) },
  });
  const run = await runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Clean the build directories.",
    maxTurns: 60,
    env: { TOOLGATE_DB: database },
    ...(options.throughRun ? { wrapper: toolgateCommand("run", "--") } : {}),
  });
  return { workspace, database, install, fake, run };
}

describe("Claude Code with toolgate hooks: stubborn rm -rf", () => {
  let withRun: Awaited<ReturnType<typeof scenario>>;
  let bare: Awaited<ReturnType<typeof scenario>>;

  beforeAll(async () => {
    assertBuilt();
    [withRun, bare] = await Promise.all([scenario({ throughRun: true }), scenario({ throughRun: false })]);
  });

  afterAll(async () => {
    removeSnapshot();
    // Effectiveness figures for BENCHMARKS.md (## Claude Code)
    console.info(
      `[effectiveness] stubborn rm -rf x${ATTEMPTS}: toolgate run -> ${withRun?.fake.servedToolUses().length} calls, exit ${withRun?.run.exitCode}; bare claude + hooks -> ${bare?.fake.servedToolUses().length} calls, exit ${bare?.run.exitCode}`,
    );
    console.info(`[toolgate run stderr]\n${withRun?.run.stderr}`);
    if (process.env.TOOLGATE_E2E_DEBUG) {
      console.info(
        JSON.stringify(
          { results: withRun?.fake.toolResults(), result: withRun?.run.result, bareStderr: bare?.run.stderr },
          null,
          1,
        ),
      );
    }
    for (const item of [withRun, bare]) {
      await item?.fake.close();
      item?.workspace.remove();
    }
  });

  it("installs the hooks into the project settings", () => {
    expect(withRun.install.exitCode).toBe(0);
    expect(withRun.install.stdout).toContain("hook claude-code");
  });

  it("stops the run at toolgate's threshold instead of 25 denials", () => {
    const calls = withRun.fake.servedToolUses().length;
    expect(calls).toBeGreaterThanOrEqual(2);
    expect(calls).toBeLessThan(ATTEMPTS);
    const result = withRun.run.result as ClaudeRunResult["result"];
    expect(result?.terminal_reason).toBe("hook_stopped");
  });

  it("toolgate run exits 6 (aborted) and its summary names the rule", () => {
    expect(withRun.run.exitCode).toBe(6);
    expect(withRun.run.stderr).toContain("toolgate aborted the run");
    expect(withRun.run.stderr).toContain("Bash(rm:*)");
    // a deny rule denied these calls: the summary says to narrow it, not to add an allow rule that could not help
    expect(withRun.run.stderr).toMatch(/Bash\(rm:\*\) denied \d+: a deny rule wins over any allow rule/);
    expect(withRun.run.stderr).not.toContain("minimal allow rule");
  });

  it("tells the model toolgate's guidance in the tool results", () => {
    const results = withRun.fake.toolResults();
    expect(results.length).toBeGreaterThan(0);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^PreToolUse:Bash hook error: .*\[toolgate\]/s);
      expect(result.text).toContain("Bash(rm:*)");
    }
  });

  it("records every denial once in the store", async () => {
    // the hooks spool records first; read them the way `toolgate report` does (the spool drained into the store)
    const { store } = await openDrainedStore({
      env: { TOOLGATE_DB: withRun.database, HOME: withRun.workspace.home },
    });
    try {
      const rows = await store.denials.query({});
      expect(rows).toHaveLength(withRun.fake.servedToolUses().length);
      expect(new Set(rows.map((row) => row.toolUseId)).size).toBe(rows.length);
      expect(rows.every((row) => row.rule === "Bash(rm:*)" && row.source === "rule")).toBe(true);
      // the hooks read the transcript's usage for the wasted calls (every denial after the first): the fake model
      // spends 120 tokens a request (issue 26 item 5)
      const { figures } = await store.denials.report();
      expect(figures.wastedCalls).toBe(rows.length - 1);
      expect(figures.wastedTokens).toBe(figures.wastedCalls * 120);
    } finally {
      await store.close();
    }
  });

  it("without toolgate run, the bare CLI still stops early (but exits 0: use toolgate run for the exit code)", () => {
    expect(bare.fake.servedToolUses().length).toBeLessThan(ATTEMPTS);
    expect(bare.run.exitCode).toBe(0);
    expect(bare.run.result?.terminal_reason).toBe("hook_stopped");
  });
});
