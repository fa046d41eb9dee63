import { stepCountIs, streamText, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Effect } from "../../src/core/effects.js";
import { scriptedModel } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe("streamText with the real ai", () => {
  it("a stubborn model stops at the threshold (stopWhen)", async () => {
    const project = tempProject({ permissions: { deny: ["deleteFile"] } });
    projects.push(project);
    const toolgate = await project.open();
    const guarded = toolgate.guardTools({
      deleteFile: tool({
        inputSchema: z.object({ path: z.string() }),
        execute: async () => "deleted",
      }),
    });
    const { model, calls } = scriptedModel([{ toolName: "deleteFile", input: { path: "build" } }]);
    const result = streamText({
      model,
      tools: guarded.tools,
      stopWhen: [stepCountIs(20), guarded.stopWhen],
      prompt: "clean up",
    });
    await result.consumeStream();
    expect(calls()).toBe(3);
    expect(guarded.abortError()?.count).toBe(3);
    await toolgate.close();
    expect(project.records()).toHaveLength(3);
  }, 60_000);

  it("a stream interrupted mid-tool-call: close() flushes the session's records to the hooks and the store", async () => {
    const project = tempProject({ permissions: { deny: ["deleteFile"] } });
    projects.push(project);
    const flushed: Effect[] = [];
    const toolgate = await project.open({
      sessionId: "interrupted",
      sinks: [{ deliver: (effects) => void flushed.push(...effects.filter((effect) => effect.type === "flush")) }],
    });
    let started: () => void = () => undefined;
    const building = new Promise<void>((resolve) => {
      started = resolve;
    });
    let aborted = false;
    const guarded = toolgate.guardTools({
      deleteFile: tool({ inputSchema: z.object({ path: z.string() }), execute: async () => "deleted" }),
      build: tool({
        inputSchema: z.object({}),
        execute: async (_input, { abortSignal }) => {
          started();
          await new Promise<void>((resolve) =>
            abortSignal?.addEventListener("abort", () => {
              aborted = true;
              resolve();
            }),
          );
          return "interrupted";
        },
      }),
    });
    const { model } = scriptedModel([
      { toolName: "deleteFile", input: { path: "a" } },
      { toolName: "deleteFile", input: { path: "b" } },
      { toolName: "build", input: {} },
    ]);
    const controller = new AbortController();
    const result = streamText({
      model,
      tools: guarded.tools,
      stopWhen: stepCountIs(10),
      abortSignal: controller.signal,
      prompt: "clean and build",
    });
    void building.then(() => controller.abort());
    const parts: string[] = [];
    for await (const part of result.fullStream) parts.push(part.type);
    expect(parts).toContain("abort");
    expect(aborted).toBe(true);
    await toolgate.close();
    const flush = flushed.find((effect) => effect.type === "flush" && effect.reason === "session-ended");
    expect(flush?.type === "flush" ? flush.records.map((record) => record.toolUseId) : []).toEqual([
      "call_1",
      "call_2",
    ]);
    expect(project.records().map((record) => record.tool_use_id)).toEqual(["call_1", "call_2"]);
  }, 60_000);
});
