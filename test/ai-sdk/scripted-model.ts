import type {
  LanguageModelV3CallOptions,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
} from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV3 } from "ai/test";

/** One scripted model turn: a tool call, or plain text that ends the run. */
export type ScriptedTurn = { toolName: string; input: unknown } | { text: string };

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

function contentOf(turn: ScriptedTurn, index: number) {
  return "text" in turn
    ? [{ type: "text" as const, text: turn.text }]
    : [
        {
          type: "tool-call" as const,
          toolCallId: `call_${index}`,
          toolName: turn.toolName,
          input: JSON.stringify(turn.input),
        },
      ];
}

/**
 * The AI SDK's own mock language model (`ai/test`), answering each request with the next scripted turn (the last
 * one repeats: a stubborn model). `prompts` keeps what the SDK sent, so tests can read the tool results the model saw.
 */
export function scriptedModel(turns: ScriptedTurn[]) {
  let index = 0;
  const next = () => {
    const turn = turns[Math.min(index, turns.length - 1)] as ScriptedTurn;
    index += 1;
    return { turn, index };
  };
  const prompts: LanguageModelV3CallOptions["prompt"][] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options): Promise<LanguageModelV3GenerateResult> => {
      prompts.push(options.prompt);
      const { turn, index: n } = next();
      return {
        content: contentOf(turn, n),
        finishReason: { unified: "text" in turn ? "stop" : "tool-calls", raw: undefined },
        usage,
        warnings: [],
      };
    },
    doStream: async (options) => {
      prompts.push(options.prompt);
      const { turn, index: n } = next();
      const parts: LanguageModelV3StreamPart[] = [{ type: "stream-start", warnings: [] }];
      for (const part of contentOf(turn, n)) {
        if (part.type === "text") {
          parts.push({ type: "text-start", id: "t" });
          parts.push({ type: "text-delta", id: "t", delta: part.text });
          parts.push({ type: "text-end", id: "t" });
        } else {
          parts.push(part);
        }
      }
      parts.push({
        type: "finish",
        finishReason: { unified: "text" in turn ? "stop" : "tool-calls", raw: undefined },
        usage,
      });
      return { stream: convertArrayToReadableStream(parts) };
    },
  });
  return { model, prompts, calls: () => index };
}

/** The tool results (and errors) the model was shown, in order: what a denial told it. */
export function toolResultTexts(prompt: LanguageModelV3CallOptions["prompt"] | undefined): string[] {
  const texts: string[] = [];
  for (const message of prompt ?? []) {
    if (message.role !== "tool") continue;
    for (const part of message.content) {
      if (part.type !== "tool-result") continue;
      const output = part.output as { type: string; value?: unknown; reason?: string };
      texts.push(output.type === "execution-denied" ? `denied: ${output.reason ?? ""}` : String(output.value));
    }
  }
  return texts;
}
