/**
 * A stubborn model retrying a `rm -rf` that Qwen Code's own deny rule refuses, on the real Qwen Code 0.24.4 binary.
 * Qwen checks its rules before any hook, so toolgate sees these denials only in the transcript, on the next
 * UserPromptSubmit (which Qwen fires on every model turn), and answers there.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDrainedStore } from "../../../src/store/open-drained-store.js";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import {
  installToolgate,
  modelInputs,
  type QwenRun,
  type QwenWorkspace,
  qwenWorkspace,
  runQwen,
  storedDenials,
} from "./run-qwen.js";
import { STUBBORN_RM, shellScript } from "./scripts.js";

const QWEN_RULE_TEXT =
  'This "run_shell_command" invocation was denied by permission rules. Matching deny rule: "Bash(rm *)".';

describe("Qwen Code 0.24.4: stubborn rm -rf denied by Qwen's own rule", () => {
  const workspaces: QwenWorkspace[] = [];
  let bare: QwenRun;
  let guarded: QwenRun;
  let guardedWorkspace: QwenWorkspace;

  beforeAll(async () => {
    assertBuilt();
    const plain = qwenWorkspace({ permissions: { deny: ["Bash(rm *)"] } });
    workspaces.push(plain);
    bare = await runQwen({ workspace: plain, script: shellScript(STUBBORN_RM), qwenArgs: ["--approval-mode", "yolo"] });
    guardedWorkspace = qwenWorkspace({ permissions: { deny: ["Bash(rm *)"] } });
    workspaces.push(guardedWorkspace);
    const installed = installToolgate(guardedWorkspace);
    expect(installed.exitCode, installed.stderr).toBe(0);
    guarded = await runQwen({
      workspace: guardedWorkspace,
      script: shellScript(STUBBORN_RM),
      qwenArgs: ["--approval-mode", "yolo"],
      viaToolgate: true,
    });
    // the effectiveness figures BENCHMARKS.md quotes
    const figures = (run: QwenRun) => ({
      calls: run.fake.agentRequests().filter((entry) => entry.reply.kind === "tools").length,
      modelRequests: run.fake.agentRequests().length,
      exitCode: run.exitCode,
    });
    console.log(`qwenStubborn ${JSON.stringify({ without: figures(bare), with: figures(guarded) })}`);
  }, 400_000);

  afterAll(async () => {
    await bare?.fake.close();
    await guarded?.fake.close();
    for (const workspace of workspaces) workspace.remove();
    removeSnapshot();
  });

  it("without toolgate: every call is denied, the model burns all its attempts, and Qwen exits 0", () => {
    expect(bare.timedOut).toBe(false);
    expect(bare.exitCode).toBe(0);
    expect(bare.victimSurvived).toBe(true);
    const last = modelInputs(bare.fake).at(-1);
    expect(last?.toolResults).toHaveLength(STUBBORN_RM.length);
    for (const text of last?.toolResults ?? []) expect(text).toContain(QWEN_RULE_TEXT);
    expect(JSON.stringify(bare.fake.requests.map((entry) => entry.body))).not.toContain("[toolgate]");
    expect(bare.stdout).toContain('"permission_denials"');
  });

  it("with toolgate: stopped at the threshold (2 calls, not 6) with exit 6 from toolgate run", () => {
    expect(guarded.timedOut).toBe(false);
    expect(guarded.exitCode, guarded.stderr).toBe(6);
    expect(guarded.victimSurvived).toBe(true);
    const calls = guarded.fake.agentRequests().filter((entry) => entry.reply.kind === "tools");
    expect(calls).toHaveLength(2);
    expect(guarded.stderr).toContain("toolgate aborted the run: run_shell_command was denied 2 times");
    expect(guarded.stderr).toContain("remove or narrow the deny rule Bash(rm *)");
  });

  it("with toolgate: the model is told toolgate's guidance in the denied call's own result", () => {
    const second = modelInputs(guarded.fake)[1];
    expect(second?.toolResults).toHaveLength(1);
    expect(second?.toolResults[0]).toContain(QWEN_RULE_TEXT);
    expect(second?.toolResults[0]).toContain("[toolgate] Denied by rule Bash(rm *): rm -rf victim");
  });

  it("with toolgate: each denial recorded once, keyed by the model's call id, with Qwen's rule as the source", () => {
    expect(guarded.sessionId).toBeDefined();
    const records = storedDenials(guardedWorkspace, guarded.sessionId as string);
    // the ids Qwen itself lists as denied (stream-json result) are the ids toolgate recorded, each once
    const result = JSON.parse(guarded.stdout.split("\n").find((line) => line.includes('"type":"result"')) ?? "{}");
    const deniedIds = (result.permission_denials as { tool_use_id: string }[]).map((denial) => denial.tool_use_id);
    expect(deniedIds).toHaveLength(2);
    expect(records.map((record) => record["toolUseId"]).sort()).toEqual([...deniedIds].sort());
    for (const record of records) {
      expect(record).toMatchObject({ host: "qwen", tool: "run_shell_command", source: "rule", rule: "Bash(rm *)" });
    }
  });

  it("with toolgate: the aborted session's wasted call has its tokens (Qwen fires no Stop or SessionEnd after)", async () => {
    const { store } = await openDrainedStore({
      env: { TOOLGATE_DB: guardedWorkspace.database, HOME: guardedWorkspace.home },
    });
    try {
      // the second refusal is the wasted call; the fake model reports 15 tokens a request (10 in, 5 out)
      const { figures } = await store.denials.report();
      expect(figures).toMatchObject({ wastedCalls: 1, wastedTokens: 15 });
    } finally {
      await store.close();
    }
  });
});
