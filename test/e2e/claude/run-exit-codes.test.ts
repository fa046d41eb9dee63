/** `toolgate run` with the real binary: exit 0 stays 0 when nothing was denied; a plain denial (no abort) is 5. */
import { afterAll, describe, expect, it } from "vitest";
import { startFakeAnthropic } from "./fake-anthropic.js";
import { createWorkspace, runClaude } from "./run-claude.js";
import { bash } from "./scripts.js";
import { assertBuilt, removeSnapshot, runToolgate, toolgateCommand } from "./toolgate-cli.js";

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  removeSnapshot();
  for (const cleanup of cleanups) await cleanup();
});

async function runThroughToolgate(turns: ReturnType<typeof bash>[], extra: string[] = []) {
  assertBuilt();
  const workspace = createWorkspace();
  workspace.writeProjectSettings({ permissions: { deny: ["Bash(rm:*)"] } });
  const fake = await startFakeAnthropic({ conversations: { main: turns } });
  cleanups.push(async () => {
    await fake.close();
    workspace.remove();
  });
  return runClaude({
    workspace,
    baseUrl: fake.url,
    prompt: "Do it.",
    wrapper: toolgateCommand("run", ...extra, "--"),
    env: { TOOLGATE_DB: `${workspace.root}/toolgate.db` },
  });
}

/** A workspace with toolgate's hooks installed and a model that asks for six `touch` calls (asks, headless). */
async function stubbornWithHooks() {
  assertBuilt();
  const workspace = createWorkspace();
  const database = `${workspace.root}/toolgate.db`;
  const env = { TOOLGATE_DB: database, HOME: workspace.home };
  expect(runToolgate({ args: ["install", "claude-code"], cwd: workspace.project, env }).exitCode).toBe(0);
  const fake = await startFakeAnthropic({
    conversations: { main: ["a", "b", "c", "d", "e", "f"].map((name) => bash(`touch ${name}.txt`)) },
  });
  cleanups.push(async () => {
    await fake.close();
    workspace.remove();
  });
  return { workspace, database, fake };
}

describe("toolgate run -- claude (no toolgate hooks installed)", () => {
  it("exit 0 stays 0 and prints nothing when nothing was denied", async () => {
    const run = await runThroughToolgate([bash("echo ok")]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).not.toContain("toolgate run:");
    expect(run.result?.subtype).toBe("success");
  });

  it("a denial Claude Code made on its own fails the job with 5 and is summarised from the stream", async () => {
    const run = await runThroughToolgate([bash("rm -rf ./build")]);
    expect(run.exitCode).toBe(5);
    expect(run.stderr).toContain("toolgate run: 1 denied call.");
    expect(run.stderr).toContain("minimal allow rule: Bash(rm -rf ./build)");
  });

  it("--fail-on abort keeps exit 0 for plain denials", async () => {
    const run = await runThroughToolgate([bash("rm -rf ./build")], ["--fail-on", "abort"]);
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain("toolgate run: 1 denied call.");
  });
});

describe("toolgate run -- claude, hooks installed, headless asks", () => {
  it("PermissionRequest aborts with interrupt past the threshold: claude exits 1, toolgate run exits 6", async () => {
    assertBuilt();
    const results: { exitCode: number | null; calls: number; stderr: string }[] = [];
    for (const throughRun of [false, true]) {
      const { workspace, database, fake } = await stubbornWithHooks();
      const run = await runClaude({
        workspace,
        baseUrl: fake.url,
        prompt: "Create the files.",
        env: { TOOLGATE_DB: database },
        ...(throughRun ? { wrapper: toolgateCommand("run", "--") } : {}),
      });
      expect(run.result?.terminal_reason).toBe("aborted_tools");
      results.push({ exitCode: run.exitCode, calls: fake.servedToolUses().length, stderr: run.stderr });
    }
    expect(results[0]?.exitCode).toBe(1);
    expect(results[1]?.exitCode).toBe(6);
    expect(results[1]?.stderr).toContain("toolgate aborted the run");
    for (const result of results) expect(result.calls).toBeLessThan(6);
  });
});

describe("toolgate run -- the plain form a user types (text output, through a wrapper)", () => {
  // `sh -c 'exec "$@"'` hides the program name and `--output-format text` the stream: only the hooks link the run
  const plain = ["sh", "-c", 'exec "$@"', "sh"];

  it("with hooks installed, the summary and exit 6 come from the store", async () => {
    const { workspace, database, fake } = await stubbornWithHooks();
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Create the files.",
      args: ["--output-format", "text"],
      env: { TOOLGATE_DB: database },
      wrapper: [...toolgateCommand("run", "--"), ...plain],
    });
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toContain("toolgate aborted the run");
    expect(run.stderr).not.toContain("no toolgate hook ran");
  });

  it("without hooks and without a readable stream, one line says what to add", async () => {
    assertBuilt();
    const workspace = createWorkspace();
    const fake = await startFakeAnthropic({ conversations: { main: [bash("echo ok")] } });
    cleanups.push(async () => {
      await fake.close();
      workspace.remove();
    });
    const run = await runClaude({
      workspace,
      baseUrl: fake.url,
      prompt: "Do it.",
      args: ["--output-format", "text"],
      env: { TOOLGATE_DB: `${workspace.root}/toolgate.db` },
      wrapper: [...toolgateCommand("run", "--"), ...plain],
    });
    expect(run.exitCode).toBe(0);
    const warnings = run.stderr.split("\n").filter((line) => line.includes("no toolgate hook ran"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("toolgate install claude-code");
  });
});
