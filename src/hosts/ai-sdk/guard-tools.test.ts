import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { createGuard } from "../../guard/create-guard.js";
import type { GuardSession } from "../../guard/types.js";
import type { Decider } from "./decider.js";
import { guardTools } from "./guard-tools.js";

afterEach(() => {
  vi.restoreAllMocks();
});

/** One call of `sh` through a guarded ToolSet with this decider: what ran, what the model read, what was recorded. */
async function withDecider(decider: Decider, options: { deciderTimeoutMs?: number; quiet?: boolean } = {}) {
  const guard = createGuard({ onError: () => undefined });
  const session = guard.session("decider-fails", { interactive: false });
  const runs: string[] = [];
  const guarded = guardTools(
    {
      sh: tool({
        inputSchema: z.object({ command: z.string() }),
        execute: async ({ command }) => runs.push(command),
      }),
    },
    {
      session,
      decider,
      ...(options.quiet === false ? {} : { onError: () => undefined }),
      ...(options.deciderTimeoutMs === undefined ? {} : { deciderTimeoutMs: options.deciderTimeoutMs }),
    },
  );
  const result = await generateText({
    model: oneCall("sh", { command: "ls" }),
    tools: guarded.tools,
    stopWhen: stepCountIs(3),
    prompt: "go",
  });
  const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
  const records = (await session.state()).records;
  return { runs, text: String((error as { error?: unknown } | undefined)?.error), records };
}

function oneCall(toolName: string, input: unknown) {
  let calls = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      calls += 1;
      return {
        content:
          calls === 1
            ? [{ type: "tool-call", toolCallId: "c1", toolName, input: JSON.stringify(input) }]
            : [{ type: "text", text: "done" }],
        finishReason: { unified: calls === 1 ? "tool-calls" : "stop", raw: undefined },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
          outputTokens: { total: 1, text: 1, reasoning: undefined },
        },
        warnings: [],
      };
    },
  });
}

describe("guardTools", () => {
  it("fails closed: when toolgate cannot decide, the tool never runs and the model is told why", async () => {
    const broken = {
      decide: () => Promise.reject(new Error("store down")),
      state: () => Promise.reject(new Error("store down")),
    } as unknown as GuardSession;
    const runs: string[] = [];
    const guarded = guardTools(
      {
        sh: tool({
          inputSchema: z.object({ command: z.string() }),
          execute: async ({ command }) => runs.push(command),
        }),
      },
      { session: broken, onError: () => undefined },
    );
    const result = await generateText({
      model: oneCall("sh", { command: "ls" }),
      tools: guarded.tools,
      stopWhen: stepCountIs(3),
      prompt: "go",
    });
    expect(runs).toEqual([]);
    const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
    expect(String((error as { error: unknown }).error)).toContain("toolgate could not check this call");
  });

  it("keeps a streaming tool streaming, and an allowed call runs unchanged", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("stream-tool", { interactive: false });
    const guarded = guardTools(
      {
        count: tool({
          inputSchema: z.object({ to: z.number() }),
          async *execute({ to }) {
            for (let n = 1; n <= to; n++) yield n;
          },
        }),
      },
      { session },
    );
    const result = await generateText({
      model: oneCall("count", { to: 3 }),
      tools: guarded.tools,
      stopWhen: stepCountIs(3),
      prompt: "go",
    });
    const output = result.steps[0]?.content.find((part) => part.type === "tool-result");
    expect((output as { output: unknown }).output).toBe(3);
    expect((await session.state()).records).toEqual([]);
  });

  it("passes tools without execute through untouched", () => {
    const guard = createGuard({ onError: () => undefined });
    const clientSide = tool({ inputSchema: z.object({ answer: z.string() }) });
    const guarded = guardTools({ ask: clientSide }, { session: guard.session("s", { interactive: true }) });
    expect(guarded.tools.ask).toBe(clientSide);
  });

  it("an identical call repeated: steered (the note rides on the result), then blocked by the loop detector", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("loop", { interactive: false });
    let runs = 0;
    const guarded = guardTools(
      {
        poll: tool({
          inputSchema: z.object({ job: z.string() }),
          execute: async () => {
            runs += 1;
            return "still running";
          },
        }),
      },
      { session },
    );
    let calls = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        calls += 1;
        return {
          content: [
            { type: "tool-call", toolCallId: `p${calls}`, toolName: "poll", input: JSON.stringify({ job: "7" }) },
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
            outputTokens: { total: 1, text: 1, reasoning: undefined },
          },
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      tools: guarded.tools,
      stopWhen: [stepCountIs(8), guarded.stopWhen],
      prompt: "go",
    });
    const outputs = result.steps.map((step) => {
      const part = step.content.find((content) => content.type === "tool-result" || content.type === "tool-error");
      return part?.type === "tool-result"
        ? String(part.output)
        : `error: ${String((part as { error: unknown }).error)}`;
    });
    expect(outputs.slice(0, 3)).toEqual(["still running", "still running", "still running"]);
    expect(outputs[3]).toMatch(/^still running\n.*\S/s); // step 4: the loop detector's steer, with the result
    expect(outputs[5]).toMatch(/^error: /); // step 6: blocked, never run
    expect(runs).toBe(5);
  });

  it("an approval cannot undo a call toolgate already refused", async () => {
    const guard = createGuard({
      onError: () => undefined,
      policy: { evaluate: () => ({ behavior: "deny", source: "policy", reason: "no.", denialSource: "rule" }) },
    });
    const session = guard.session("forged", { interactive: true });
    const guarded = guardTools(
      { sh: tool({ inputSchema: z.object({ command: z.string() }), execute: async () => "ran" }) },
      { session },
    );
    const input = { command: "rm -rf /" };
    const needsApproval = guarded.tools.sh.needsApproval as unknown as (
      input: unknown,
      options: { toolCallId: string; messages: [] },
    ) => Promise<boolean>;
    expect(await needsApproval(input, { toolCallId: "x1", messages: [] })).toBe(false);
    const response = await guarded.answerApproval(
      { approvalId: "a1", toolCall: { toolCallId: "x1", toolName: "sh", input } },
      { approved: true },
    );
    expect(response.approved).toBe(false);
  });

  it.each([
    ["an upper-case verdict", { decision: "DENY" }],
    ["a verdict toolgate does not know", { decision: "block" }],
    ["no answer at all", undefined],
    ["a bare string", "deny"],
    ["an object without a decision", { reason: "no" }],
  ])("a decider answering %s is an error, and the call is denied and recorded", async (_, answer) => {
    const { runs, text, records } = await withDecider(() => answer as never);
    expect(runs).toEqual([]);
    expect(text).toContain("not a verdict toolgate knows");
    expect(records.map((record) => record.source)).toEqual(["internal"]);
  });

  it("a decider that never answers: denied after deciderTimeoutMs, the model reads why, its signal is aborted", async () => {
    let signal: AbortSignal | undefined;
    const { runs, text, records } = await withDecider(
      (request) => {
        signal = request.signal;
        return new Promise(() => undefined);
      },
      { deciderTimeoutMs: 20 },
    );
    expect(runs).toEqual([]);
    expect(text).toContain("the decider did not answer within 20 ms");
    expect(signal?.aborted).toBe(true);
    expect(records.map((record) => record.source)).toEqual(["internal"]);
  });

  it("a tool's own needsApproval that never answers is bounded the same way", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("inner-hangs", { interactive: true });
    const runs: string[] = [];
    const guarded = guardTools(
      {
        sh: tool({
          inputSchema: z.object({ command: z.string() }),
          needsApproval: () => new Promise<boolean>(() => undefined),
          execute: async ({ command }) => runs.push(command),
        }),
      },
      { session, deciderTimeoutMs: 20, onError: () => undefined },
    );
    const result = await generateText({
      model: oneCall("sh", { command: "ls" }),
      tools: guarded.tools,
      stopWhen: stepCountIs(3),
      prompt: "go",
    });
    expect(runs).toEqual([]);
    const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
    expect(String((error as { error: unknown }).error)).toContain("needsApproval did not answer within 20 ms");
  });

  it("refuses a deciderTimeoutMs that is not a positive number of milliseconds", () => {
    const session = createGuard({ onError: () => undefined }).session("bad-timeout", { interactive: false });
    for (const deciderTimeoutMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => guardTools({}, { session, deciderTimeoutMs })).toThrow(/deciderTimeoutMs must be/);
    }
  });

  it("a decider that throws a token: refused, and neither stderr, the model nor the record sees the token", async () => {
    const token = `ghp_${"Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4zAb7c"}`;
    const written: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const { runs, text, records } = await withDecider(
      () => {
        throw new Error(`OPA unreachable (token ${token})`);
      },
      { quiet: false },
    );
    vi.restoreAllMocks();
    expect(runs).toEqual([]);
    expect(text).toContain("OPA unreachable (token [REDACTED:");
    expect(written.join("")).toContain("toolgate: decider: OPA unreachable (token [REDACTED:");
    expect(written.join("")).not.toContain(token);
    expect(JSON.stringify(records)).not.toContain(token);
    expect(records.map((record) => record.source)).toEqual(["internal"]);
  });

  it("an execute error that toolgate rewrites for the model is redacted", async () => {
    const token = `ghp_${"Zy9xWv8uTs7rQp6oNm5lKj4iHg3fEd2cBa1Z"}`;
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("execute-token", { interactive: false });
    const guarded = guardTools(
      {
        sh: tool({
          inputSchema: z.object({ command: z.string() }),
          execute: async (): Promise<string> => {
            throw new Error(`EACCES: permission denied, open '/etc/shadow' (auth ${token})`);
          },
        }),
      },
      { session },
    );
    const result = await generateText({
      model: oneCall("sh", { command: "cat /etc/shadow" }),
      tools: guarded.tools,
      stopWhen: stepCountIs(3),
      prompt: "go",
    });
    const error = result.steps[0]?.content.find((part) => part.type === "tool-error");
    const text = String((error as { error: unknown }).error);
    expect(text).toContain("permission denied");
    expect(text).not.toContain(token);
  });
});
