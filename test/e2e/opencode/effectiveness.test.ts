import { describe, expect, test } from "vitest";
import { bash, stubbornScript } from "./fake-openai.js";
import { pluginWithOptions, runScenario, toolResultsIn } from "./scenario.js";

/**
 * Effectiveness on the stubborn scenario: a model that retries a rule-denied `rm -rf victim` up to 12 times.
 * Counts what reached the model (agent requests to the fake server) and the tool calls opencode ran or denied,
 * with and without toolgate. Figures are recorded in BENCHMARKS.md (## opencode).
 */
const denyRm = { bash: { "*": "allow", "rm *": "deny" } };
const files = { "victim/keep.txt": "keep" };

async function measure(plugin: string | false | undefined) {
  const { conversations, run, fake } = await runScenario({
    script: stubbornScript({ call: bash("rm -rf victim"), maxAttempts: 12 }),
    permission: denyRm,
    files,
    ...(plugin === undefined ? {} : { plugin }),
  });
  const modelCalls = conversations.length;
  // tool calls the model made (each scripted reply with calls), and how many results it got back before the end
  const toolCalls = fake
    .agentRequests()
    .reduce((sum, request) => sum + (request.reply.kind === "tools" ? request.reply.calls.length : 0), 0);
  const resultsSeen = toolResultsIn(conversations.at(-1) ?? []).length;
  return { modelCalls, toolCalls, resultsSeen, seconds: run.durationMs / 1000 };
}

describe("stubborn model: model calls and tool calls with and without toolgate", () => {
  test("toolgate cuts the retries", async () => {
    const without = await measure(false);
    const headlessAbort = await measure(undefined);
    const ladder = await measure(pluginWithOptions('{ core: { headlessStrategy: "fallback" } }'));
    console.log(JSON.stringify({ without, headlessAbort, ladder }));
    expect(without).toMatchObject({ modelCalls: 13, toolCalls: 12, resultsSeen: 12 });
    expect(headlessAbort.modelCalls).toBeLessThan(without.modelCalls);
    expect(headlessAbort.toolCalls).toBeLessThan(without.toolCalls);
    expect(ladder.toolCalls).toBeLessThan(without.toolCalls);
  }, 480_000);
});
