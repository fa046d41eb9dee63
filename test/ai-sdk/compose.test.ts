import { generateText, stepCountIs, ToolLoopAgent, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createGuard } from "../../src/guard/create-guard.js";
import { type DeciderDecision, guardTools } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";
import { scriptedModel, toolResultTexts } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function paymentTools(paid: number[]) {
  return {
    pay: tool({
      description: "Pay an amount",
      inputSchema: z.object({ amount: z.number() }),
      // the app's own rule: large payments need a person
      needsApproval: async ({ amount }) => amount > 1000,
      execute: async ({ amount }) => {
        paid.push(amount);
        return `paid ${amount}`;
      },
    }),
  };
}

describe("composition with the app's own needsApproval and an OPA-style decider", () => {
  it("the app's needsApproval still decides what toolgate leaves open", async () => {
    const project = tempProject({});
    projects.push(project);
    const toolgate = await project.open({ interactive: true });
    const paid: number[] = [];
    const guarded = toolgate.guardTools(paymentTools(paid));
    const { model } = scriptedModel([
      { toolName: "pay", input: { amount: 20 } },
      { toolName: "pay", input: { amount: 5000 } },
    ]);
    const result = await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(5), prompt: "pay" });
    expect(paid).toEqual([20]);
    const requests = result.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((request) => request.toolCall.input)).toEqual([{ amount: 5000 }]);
    await toolgate.close();
    expect(project.records()).toEqual([]);
  }, 60_000);

  it("headless: what the app's needsApproval would ask is denied (nobody answers) and counted", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("headless-approval", { interactive: false, host: "ai-sdk" });
    const paid: number[] = [];
    const guarded = guardTools(paymentTools(paid), { session });
    const { model, prompts } = scriptedModel([
      { toolName: "pay", input: { amount: 5000 } },
      { toolName: "pay", input: { amount: 5000 } },
      { toolName: "pay", input: { amount: 5000 } },
      { text: "gave up" },
    ]);
    const result = await generateText({
      model,
      tools: guarded.tools,
      stopWhen: [stepCountIs(10), guarded.stopWhen],
      prompt: "pay",
    });
    expect(paid).toEqual([]);
    expect(result.content.some((part) => part.type === "tool-approval-request")).toBe(false);
    expect((await session.state()).records.map((record) => record.source)).toEqual([
      "headless",
      "headless",
      "headless",
    ]);
    expect(guarded.abortError()?.count).toBe(3);
    expect(toolResultTexts(prompts.at(-1))[0]).toContain("Nobody can approve it");
  }, 60_000);

  it("a decider's deny is counted and escalated; its requires-approval becomes the SDK's approval request", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("decider", { interactive: true, host: "ai-sdk" });
    const paid: number[] = [];
    const decider = ({ input }: { input: unknown }): DeciderDecision => {
      const { amount } = input as { amount: number };
      if (amount > 10_000) return { decision: "deny", reason: "Payments over 10000 are not allowed." };
      if (amount > 100) return { decision: "requires-approval" };
      return { decision: "not-applicable" };
    };
    const guarded = guardTools(paymentTools(paid), { session, decider });
    const { model, prompts } = scriptedModel([
      { toolName: "pay", input: { amount: 50_000 } },
      { toolName: "pay", input: { amount: 50_000 } },
      { toolName: "pay", input: { amount: 10 } },
      { toolName: "pay", input: { amount: 500 } },
    ]);
    const result = await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(10), prompt: "pay" });
    expect(paid).toEqual([10]);
    const seen = toolResultTexts(prompts.at(-1));
    expect(seen[0]).toContain("Payments over 10000 are not allowed.");
    expect(seen[1]).toContain("[toolgate]");
    const records = (await session.state()).records;
    expect(records.map((record) => record.source)).toEqual(["rule", "rule"]);
    const requests = result.content.filter((part) => part.type === "tool-approval-request");
    expect(requests.map((request) => request.toolCall.input)).toEqual([{ amount: 500 }]);
  }, 60_000);

  it("an execute error that is an OS permission denial counts and carries toolgate's guidance", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("os-denial", { interactive: false, host: "ai-sdk" });
    const tools = {
      readFile: tool({
        description: "Read a file",
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }): Promise<string> => {
          throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES" });
        },
      }),
    };
    const guarded = guardTools(tools, { session });
    const { model, prompts } = scriptedModel([
      { toolName: "readFile", input: { path: "/etc/shadow" } },
      { toolName: "readFile", input: { path: "/etc/shadow" } },
      { text: "cannot read it" },
    ]);
    await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(10), prompt: "read" });
    const records = (await session.state()).records;
    expect(records).toHaveLength(2);
    expect(records[0]?.reason).toContain("EACCES");
    const seen = toolResultTexts(prompts.at(-1));
    expect(seen[0]).toContain("EACCES: permission denied");
    expect(seen.join("\n")).toContain("[toolgate]");
  }, 60_000);

  it("works with the SDK's agent class (ToolLoopAgent)", async () => {
    const guard = createGuard({
      onError: () => undefined,
      policy: {
        evaluate: (call) =>
          call.tool === "pay"
            ? { behavior: "deny", source: "policy", rule: "pay", reason: "pay is denied.", denialSource: "rule" }
            : { behavior: "allow", source: "default", reason: "ok" },
      },
    });
    const session = guard.session("agent", { interactive: false, host: "ai-sdk" });
    const paid: number[] = [];
    const guarded = guardTools(paymentTools(paid), { session });
    const { model, calls } = scriptedModel([{ toolName: "pay", input: { amount: 1 } }]);
    const agent = new ToolLoopAgent({ model, tools: guarded.tools, stopWhen: [stepCountIs(20), guarded.stopWhen] });
    await agent.generate({ prompt: "pay" });
    expect(calls()).toBe(3);
    expect(paid).toEqual([]);
    expect(guarded.abortError()?.rule).toBe("pay");
  }, 60_000);

  it("a decider that throws (OPA unreachable) refuses the call: fail closed", async () => {
    const guard = createGuard({ onError: () => undefined });
    const session = guard.session("decider-down", { interactive: false, host: "ai-sdk" });
    const paid: number[] = [];
    const guarded = guardTools(paymentTools(paid), {
      session,
      onError: () => undefined,
      decider: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:8181");
      },
    });
    const { model, prompts } = scriptedModel([{ toolName: "pay", input: { amount: 1 } }, { text: "stopped" }]);
    await generateText({ model, tools: guarded.tools, stopWhen: stepCountIs(5), prompt: "pay" });
    expect(paid).toEqual([]);
    expect(toolResultTexts(prompts.at(-1))[0]).toContain("toolgate could not check this call");
  }, 60_000);
});
