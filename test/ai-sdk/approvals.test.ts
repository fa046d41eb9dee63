import { generateText, type ModelMessage, stepCountIs, type ToolApprovalResponse, tool } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { GuardedTools } from "../../src/hosts/ai-sdk/ai-sdk-entry.js";
import { type ScriptedTurn, scriptedModel, toolResultTexts } from "./scripted-model.js";
import { tempProject } from "./temp-project.js";

const projects: ReturnType<typeof tempProject>[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});

function shellTools(runs: string[]) {
  return {
    runCommand: tool({
      description: "Run a shell command",
      inputSchema: z.object({ command: z.string() }),
      // the app's own approval rule: every command asks
      needsApproval: true,
      execute: async ({ command }) => {
        runs.push(command);
        return `ran ${command}`;
      },
    }),
  };
}

type Answer = (offer: string | undefined) => { approved: boolean; grant?: boolean; reason?: string };

/**
 * The approval loop every AI SDK app with an approval UI writes: generate, show each `tool-approval-request`,
 * append the answers, generate again. `answer` is the person; it sees toolgate's grant question when one is offered.
 */
async function approvalLoop(options: {
  guarded: GuardedTools<ReturnType<typeof shellTools>>;
  turns: ScriptedTurn[];
  rounds: number;
  answer: Answer;
  /** answer with plain response parts, as a `useChat` client does, instead of `answerApproval` */
  plain?: boolean;
}) {
  const scripted = scriptedModel(options.turns);
  const messages: ModelMessage[] = [{ role: "user", content: "publish the package" }];
  const offers: (string | undefined)[] = [];
  for (let round = 0; round < options.rounds; round++) {
    const result = await generateText({
      model: scripted.model,
      tools: options.guarded.tools,
      messages,
      stopWhen: stepCountIs(5),
    });
    messages.push(...result.response.messages);
    const requests = result.content.filter((part) => part.type === "tool-approval-request");
    if (requests.length === 0) break;
    const responses: ToolApprovalResponse[] = [];
    for (const request of requests) {
      const offer = options.guarded.grantOffer(request)?.question;
      offers.push(offer);
      const answer = options.answer(offer);
      responses.push(
        options.plain === true
          ? { type: "tool-approval-response", approvalId: request.approvalId, ...answer }
          : await options.guarded.answerApproval(request, answer),
      );
    }
    messages.push({ role: "tool", content: responses });
  }
  return { ...scripted, messages, offers };
}

const publish: ScriptedTurn = { toolName: "runCommand", input: { command: "npm publish" } };

describe("an approval UI (interactive) with the real ai", () => {
  it("a person who keeps declining: each decline counts, the model reads toolgate's guidance, a grant is offered once", async () => {
    const project = tempProject({});
    projects.push(project);
    const toolgate = await project.open({ sessionId: "declines", interactive: true });
    const runs: string[] = [];
    const guarded = toolgate.guardTools(shellTools(runs), { toolNames: { runCommand: "Bash" } });
    const loop = await approvalLoop({
      guarded,
      turns: [publish],
      rounds: 4,
      answer: () => ({ approved: false, grant: false, reason: "Not now." }),
    });
    expect(runs).toEqual([]);
    // shell threshold 2: the third approval request carries toolgate's offer of the minimum scope
    expect(loop.offers.slice(0, 2)).toEqual([undefined, undefined]);
    expect(loop.offers[2]).toBe(
      'Bash was denied 2 times for "npm publish". Allow the command "npm publish" for the rest of this session?',
    );
    expect(loop.offers[3]).toBeUndefined();
    const seen = toolResultTexts(loop.prompts.at(-1));
    expect(seen).toHaveLength(3);
    expect(seen[0]).toMatch(/^denied: Not now\.\n/);
    expect(seen.at(-1)).toContain("[toolgate]");
    await toolgate.close();
    expect(project.records().map((record) => [record.tool, record.source])).toEqual([
      ["Bash", "user"],
      ["Bash", "user"],
      ["Bash", "user"],
      ["Bash", "user"],
    ]);
  }, 60_000);

  it("an accepted grant: the call runs and later calls of that scope no longer ask", async () => {
    const project = tempProject({});
    projects.push(project);
    const toolgate = await project.open({ sessionId: "grant", interactive: true });
    const runs: string[] = [];
    const guarded = toolgate.guardTools(shellTools(runs), { toolNames: { runCommand: "Bash" } });
    const loop = await approvalLoop({
      guarded,
      turns: [publish, publish, publish, publish, publish, { text: "published" }],
      rounds: 6,
      answer: (offer) => (offer === undefined ? { approved: false } : { approved: true, grant: true }),
    });
    // two declines, the offer accepted with the third request (that call runs), then two more calls run unasked
    expect(loop.offers).toEqual([undefined, undefined, expect.stringContaining("npm publish")]);
    expect(runs).toEqual(["npm publish", "npm publish", "npm publish"]);
    expect(loop.calls()).toBe(6);
    const state = await toolgate.session.state();
    expect(state.grants.map((grant) => grant.scope.rule)).toEqual(["Bash(npm publish)"]);
    await toolgate.close();
    expect(project.records()).toHaveLength(2);
  }, 60_000);

  it("answers that bypass answerApproval (a useChat client's) are still counted, once each", async () => {
    const project = tempProject({});
    projects.push(project);
    const toolgate = await project.open({ sessionId: "plain", interactive: true });
    const guarded = toolgate.guardTools(shellTools([]), { toolNames: { runCommand: "Bash" } });
    const loop = await approvalLoop({
      guarded,
      turns: [publish],
      rounds: 4,
      plain: true,
      answer: () => ({ approved: false, reason: "No." }),
    });
    // counted when the next call is decided: three of the four declines, the fourth when the history comes back
    await guarded.countApprovals(loop.messages);
    await guarded.countApprovals(loop.messages);
    expect(loop.offers[2]).toContain("npm publish");
    await toolgate.close();
    expect(project.records().map((record) => record.source)).toEqual(["user", "user", "user", "user"]);
  }, 60_000);
});
