// One chat turn of an AI SDK app with an approval UI, through toolgate: declines count and tell the model why, and
// after repeated declines of one pattern the person is offered a session grant of its minimum scope.
// docs/ai-sdk.md quotes this file; `npm run typecheck` checks it against the real `ai` types.
import {
  generateText,
  type LanguageModel,
  type ModelMessage,
  stepCountIs,
  type ToolApprovalResponse,
  type ToolSet,
} from "ai";
import { openToolgateForAiSdk } from "toolgate/ai-sdk";

/** Your UI: show the call (and toolgate's grant question, when it has one) and return the person's answer. */
export type AskThePerson = (
  call: { toolName: string; input: unknown },
  grantQuestion: string | undefined,
) => Promise<{ approved: boolean; grant?: boolean }>;

export async function chatTurn(options: {
  chatId: string;
  model: LanguageModel;
  tools: ToolSet;
  messages: ModelMessage[];
  askThePerson: AskThePerson;
}): Promise<string> {
  // state in the store: every request of this chat continues one toolgate session
  const toolgate = await openToolgateForAiSdk({ interactive: true, sessionId: options.chatId, state: "store" });
  try {
    const guarded = toolgate.guardTools(options.tools, { toolNames: { runCommand: "Bash" } });
    for (;;) {
      const result = await generateText({
        model: options.model,
        tools: guarded.tools,
        messages: options.messages,
        stopWhen: [stepCountIs(20), guarded.stopWhen],
      });
      options.messages.push(...result.response.messages);
      const answers: ToolApprovalResponse[] = [];
      for (const part of result.content) {
        if (part.type !== "tool-approval-request") continue;
        const offer = guarded.grantOffer(part); // after repeated declines: "Allow ... for the rest of this session?"
        const { approved, grant } = await options.askThePerson(part.toolCall, offer?.question);
        // a decline is counted now, and its reason (what the model reads) carries toolgate's guidance
        answers.push(
          await guarded.answerApproval(part, { approved, grant, reason: approved ? undefined : "Not now." }),
        );
      }
      if (answers.length === 0) return result.text;
      options.messages.push({ role: "tool", content: answers });
    }
  } finally {
    await toolgate.close();
  }
}
