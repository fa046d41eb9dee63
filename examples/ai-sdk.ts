// toolgate around a Vercel AI SDK agent: a model that keeps retrying a denied command is stopped at the threshold.
// docs/ai-sdk.md quotes this file; `npm run typecheck` checks it against the real `ai` types, and
// `node scripts/run-example.mjs examples/ai-sdk.ts` runs it (test/ai-sdk/example.test.ts does, in a temp project).
import { generateText, stepCountIs, tool } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { openToolgateForAiSdk, ToolgateAbortError } from "toolgate/ai-sdk";
import { z } from "zod";

// A stubborn model (the AI SDK's own mock): every step it asks to run the same command. Swap in your real model.
let modelCalls = 0;
const model = new MockLanguageModelV3({
  doGenerate: async () => {
    modelCalls += 1;
    return {
      content: [
        {
          type: "tool-call",
          toolCallId: `call_${modelCalls}`,
          toolName: "runCommand",
          input: JSON.stringify({ command: "rm -rf build" }),
        },
      ],
      finishReason: { unified: "tool-calls", raw: undefined },
      usage: {
        inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 20, text: 20, reasoning: undefined },
      },
      warnings: [],
    };
  },
});

let commandsRun = 0;
const tools = {
  runCommand: tool({
    description: "Run a shell command",
    inputSchema: z.object({ command: z.string() }),
    execute: async ({ command }) => {
      commandsRun += 1;
      return `ran ${command}`;
    },
  }),
};

// reads toolgate.config.json from the working directory, e.g. { "permissions": { "deny": ["Bash(rm *)"] } }
const toolgate = await openToolgateForAiSdk({ interactive: false });
// runCommand is a shell tool: toolgate's Bash(...) rules, patterns and thresholds apply to it
const guarded = toolgate.guardTools(tools, { toolNames: { runCommand: "Bash" } });

try {
  await generateText({
    model,
    tools: guarded.tools,
    stopWhen: [stepCountIs(20), guarded.stopWhen],
    prompt: "Clean the build directory.",
  });
  guarded.throwIfAborted();
  console.log(`finished: ${modelCalls} model calls, ${commandsRun} commands run`);
} catch (error) {
  if (!(error instanceof ToolgateAbortError)) throw error;
  console.log(`stopped after ${modelCalls} model calls (of up to 20), ${commandsRun} commands run`);
  console.log(error.message); // names the tool, the count, the call and the rule that would allow it
  process.exitCode = 6;
} finally {
  await toolgate.close(); // every denial is in the store (~/.toolgate/toolgate.db): `npx toolgate report`
}
