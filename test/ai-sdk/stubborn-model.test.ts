import { generateText, stepCountIs, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolgateAbortError } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";
import { scriptedModel, toolResultTexts } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function deleteTool(runs: string[]) {
  return {
    deleteFile: tool({
      description: "Delete a file",
      inputSchema: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        runs.push(path);
        return `deleted ${path}`;
      },
    }),
  };
}

describe("a stubborn model retrying a denied tool (real ai, MockLanguageModelV3)", () => {
  it("without toolgate: 20 denied-by-nobody calls, every one executed", async () => {
    const runs: string[] = [];
    const { model, calls } = scriptedModel([{ toolName: "deleteFile", input: { path: "build" } }]);
    await generateText({ model, tools: deleteTool(runs), stopWhen: stepCountIs(20), prompt: "clean up" });
    expect(calls()).toBe(20);
    expect(runs).toHaveLength(20);
  });

  it("with toolgate (headless): stops at the threshold, names tool, count and rule, records every denial", async () => {
    const project = tempProject({ permissions: { deny: ["deleteFile"] } });
    projects.push(project);
    const toolgate = await project.open({ sessionId: "stubborn-1" });
    const runs: string[] = [];
    const guarded = toolgate.guardTools(deleteTool(runs));
    const { model, calls, prompts } = scriptedModel([{ toolName: "deleteFile", input: { path: "build" } }]);
    await generateText({
      model,
      tools: guarded.tools,
      stopWhen: [stepCountIs(20), guarded.stopWhen],
      prompt: "clean up",
    });
    // the default threshold for an `other` tool is 3: three model calls, none executed, then the run stops
    expect(calls()).toBe(3);
    expect(runs).toEqual([]);
    const error = guarded.abortError();
    expect(error).toBeInstanceOf(ToolgateAbortError);
    expect(error).toMatchObject({ code: "TOOLGATE_ABORTED", tool: "deleteFile", count: 3, rule: "deleteFile" });
    expect(error?.message).toContain("deleteFile");
    expect(() => guarded.throwIfAborted()).toThrow(ToolgateAbortError);
    // the model read toolgate's words with each refusal
    const seen = toolResultTexts(prompts.at(-1));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toContain("deleteFile");
    await toolgate.close();
    const records = project.records();
    expect(records.map((record) => [record.tool, record.source])).toEqual([
      ["deleteFile", "rule"],
      ["deleteFile", "rule"],
      ["deleteFile", "rule"],
    ]);
  }, 60_000);

  it("abortSignal: generateText rejects with the ToolgateAbortError", async () => {
    const project = tempProject({ permissions: { deny: ["deleteFile"] } });
    projects.push(project);
    const toolgate = await project.open();
    const guarded = toolgate.guardTools(deleteTool([]));
    const { model, calls } = scriptedModel([{ toolName: "deleteFile", input: { path: "build" } }]);
    const run = generateText({
      model,
      tools: guarded.tools,
      stopWhen: stepCountIs(20),
      abortSignal: guarded.abortSignal,
      prompt: "clean up",
    });
    await expect(run).rejects.toBeInstanceOf(ToolgateAbortError);
    expect(calls()).toBe(3);
    await toolgate.close();
  }, 60_000);
});
