import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createGuard } from "../../guard/create-guard.js";
import type { GuardSession } from "../../guard/types.js";
import { guardTools } from "./guard-tools.js";

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
});
