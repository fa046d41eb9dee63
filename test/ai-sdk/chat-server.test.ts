import { generateText, type ModelMessage, stepCountIs, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { scriptedModel } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

describe("a chat server: one store-backed session across requests (state: store)", () => {
  it("counts each answer from the client's history once, however often the history comes back", async () => {
    const project = tempProject({});
    projects.push(project);
    const runs: string[] = [];
    const tools = {
      deploy: tool({
        inputSchema: z.object({ env: z.string() }),
        needsApproval: true,
        execute: async ({ env }) => {
          runs.push(env);
          return `deployed ${env}`;
        },
      }),
    };
    const { model } = scriptedModel([
      { toolName: "deploy", input: { env: "prod" } },
      { toolName: "deploy", input: { env: "staging" } },
      { text: "ok" },
    ]);
    const messages: ModelMessage[] = [{ role: "user", content: "deploy" }];
    // each request opens toolgate anew, as a serverless handler would, and answers come from the client
    async function request(answer?: (approvalId: string) => boolean) {
      const toolgate = await project.open({ sessionId: "chat-1", interactive: true, state: "store" });
      try {
        const guarded = toolgate.guardTools(tools);
        const result = await generateText({ model, tools: guarded.tools, messages, stopWhen: stepCountIs(5) });
        messages.push(...result.response.messages);
        const requests = result.content.filter((part) => part.type === "tool-approval-request");
        if (answer !== undefined && requests.length > 0) {
          messages.push({
            role: "tool",
            content: requests.map((part) => ({
              type: "tool-approval-response" as const,
              approvalId: part.approvalId,
              approved: answer(part.approvalId),
            })),
          });
        }
        await guarded.countApprovals(messages);
      } finally {
        await toolgate.close();
      }
    }
    await request(() => false); // asks about prod; the client declines
    await request(() => true); // the decline is counted; asks about staging; the client approves
    await request(); // staging runs
    await request(); // the same history again: nothing new
    expect(runs).toEqual(["staging"]);
    expect(project.records().map((record) => [record.tool, record.source, record.tool_use_id])).toEqual([
      ["deploy", "user", "call_1"],
    ]);
  }, 120_000);
});
