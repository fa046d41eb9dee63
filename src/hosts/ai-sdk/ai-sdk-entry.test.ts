import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { RUN_DIRECTORY_ENV, runAbort } from "../../root/run-sessions.js";
import { openToolgateForAiSdk } from "./ai-sdk-entry.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function stubborn(command: string) {
  let calls = 0;
  const model = new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      return {
        content:
          calls > 5
            ? [{ type: "text", text: "giving up" }]
            : [{ type: "tool-call", toolCallId: `c${calls}`, toolName: "sh", input: JSON.stringify({ command }) }],
        finishReason: { unified: calls > 5 ? "stop" : "tool-calls", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
  return { model, calls: () => calls };
}

describe("openToolgateForAiSdk (the composition root for AI SDK agents)", () => {
  it("takes escalation options from the caller: headless fallback tells the model and never aborts", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-node-"));
    dirs.push(dir);
    const toolgate = await openToolgateForAiSdk({
      cwd: dir,
      homeDir: dir,
      env: { HOME: dir, TOOLGATE_DB: ":memory:" },
      // a policy evaluator instead of a config file: every `sh` call is denied by a rule
      enforce: {
        evaluate: () => ({
          behavior: "deny",
          source: "policy",
          rule: "sh",
          reason: "sh is off.",
          denialSource: "rule",
        }),
      },
      core: { headlessStrategy: "fallback" },
    });
    const guarded = toolgate.guardTools({
      sh: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => "ran" }),
    });
    const { model, calls } = stubborn("make deploy");
    const result = await generateText({
      model,
      tools: guarded.tools,
      stopWhen: [stepCountIs(10), guarded.stopWhen],
      prompt: "go",
    });
    expect(calls()).toBe(6);
    expect(guarded.abortError()).toBeUndefined();
    const errors = result.steps.flatMap((step) => step.content.filter((part) => part.type === "tool-error"));
    expect(errors).toHaveLength(5);
    expect(String((errors.at(-1) as { error: unknown }).error)).toContain("[toolgate]");
    const state = await toolgate.session.state();
    expect(state.host).toBe("ai-sdk");
    expect(state.records).toHaveLength(5);
    await toolgate.close();
    await toolgate.close(); // idempotent
  }, 60_000);

  it("under toolgate run, notes its abort for run (which ends an app that goes on anyway)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-node-"));
    dirs.push(dir);
    const runDirectory = join(dir, "run");
    mkdirSync(runDirectory);
    const toolgate = await openToolgateForAiSdk({
      cwd: dir,
      homeDir: dir,
      sessionId: "ai-sdk-run",
      env: { HOME: dir, TOOLGATE_DB: ":memory:", [RUN_DIRECTORY_ENV]: runDirectory },
      enforce: {
        evaluate: () => ({
          behavior: "deny",
          source: "policy",
          rule: "sh",
          reason: "sh is off.",
          denialSource: "rule",
        }),
      },
    });
    const guarded = toolgate.guardTools({
      sh: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => "ran" }),
    });
    const { model } = stubborn("make deploy");
    await generateText({ model, tools: guarded.tools, stopWhen: [stepCountIs(10), guarded.stopWhen], prompt: "go" });
    expect(guarded.abortError()).toBeDefined();
    await toolgate.close();
    expect(runAbort(runDirectory)).toMatchObject({ sessionId: "ai-sdk-run", hostEndsRun: true });
    expect(runAbort(runDirectory)?.reason).toMatch(/toolgate aborted the run/);
  }, 60_000);

  it("does not read the Claude Code settings unless asked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-ai-sdk-node-"));
    dirs.push(dir);
    mkdirSync(join(dir, ".claude"));
    writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ permissions: { deny: ["sh"] } }));
    const options = { cwd: dir, homeDir: dir, env: { HOME: dir, TOOLGATE_DB: ":memory:" } };
    const plain = await openToolgateForAiSdk(options);
    expect(plain.toolgate.policy.current?.sources).toEqual([]);
    expect(
      (await plain.session.decide({ toolUseId: "a", tool: "sh", input: {} }, { hostAsks: true })).decision.behavior,
    ).not.toBe("deny");
    await plain.close();
    const withClaude = await openToolgateForAiSdk({ ...options, claudeSettings: true });
    expect(withClaude.toolgate.policy.current?.sources.some((source) => source.includes(".claude"))).toBe(true);
    expect(
      (await withClaude.session.decide({ toolUseId: "a", tool: "sh", input: {} }, { hostAsks: true })).decision
        .behavior,
    ).toBe("deny");
    await withClaude.close();
  });
});
