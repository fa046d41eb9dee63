import type { CallTokens } from "../../core/events.js";
import { asRecord, asString } from "../common/read-lines.js";
import { usageTokens } from "../common/usage-tokens.js";

/**
 * How a Claude Code call's tokens are counted, in one place for `toolgate analyze` (the transcript reader,
 * claude-code-session.ts) and the hook's wasted tokens (handle-hook.ts): the tokens of the model request that made
 * it. An assistant message split over several lines carries its usage on each, so a line whose message id is the
 * previous line's counts 0; a line's tokens go to its first `tool_use` block, the others get 0.
 */

/** The tokens an assistant line counts, given the message id of the assistant line read before it. */
export function requestTokens(
  message: Record<string, unknown> | undefined,
  lastMessageId: string | undefined,
): { messageId: string | undefined; tokens: number } {
  const messageId = asString(message?.["id"]);
  return { messageId, tokens: splitAgain(messageId, lastMessageId) ? 0 : usageTokens(message?.["usage"]) };
}

/** whether a line continues the message of the assistant line before it (its usage is then counted already) */
function splitAgain(messageId: string | undefined, lastMessageId: string | undefined): boolean {
  return messageId !== undefined && messageId === lastMessageId;
}

/**
 * An assistant line: where it is, its message id, its usage's tokens and its calls' ids in order (none for a line
 * of text: it still carries its message id to the line after it).
 */
export interface CallLine {
  /** the line's position in its transcript (`TranscriptLines`: a larger one comes later) */
  at: number;
  messageId: string | undefined;
  /** the tokens of its message's usage (before the rule above) */
  usage: number;
  /** the ids of its `tool_use` blocks, in order */
  calls: readonly string[];
}

/** The call line of a parsed transcript line (an assistant line with a list of blocks); undefined for any other. */
export function callLineOf(record: unknown, at: number): CallLine | undefined {
  const line = asRecord(record);
  if (line?.["type"] !== "assistant") return undefined;
  const message = asRecord(line["message"]);
  const content = message?.["content"];
  if (!Array.isArray(content)) return undefined;
  const calls: string[] = [];
  for (const block of content) {
    const tool = asRecord(block);
    if (tool?.["type"] === "tool_use") calls.push(String(tool["id"]));
  }
  return { at, messageId: asString(message?.["id"]), usage: usageTokens(message?.["usage"]), calls };
}

/**
 * Tokens per call id of these call lines, as the transcript reader counts them reading only these lines in file
 * order (what `callTokensIn` gives for the lines naming the wanted calls); a line given twice counts once.
 */
export function tokensOfCallLines(lines: Iterable<CallLine>): CallTokens {
  const byPlace = new Map<number, CallLine>();
  for (const line of lines) byPlace.set(line.at, line);
  const tokens: Record<string, number> = {};
  let lastMessageId: string | undefined;
  for (const line of [...byPlace.values()].sort((a, b) => a.at - b.at)) {
    let count = splitAgain(line.messageId, lastMessageId) ? 0 : line.usage;
    lastMessageId = line.messageId;
    for (const id of line.calls) {
      tokens[id] = (tokens[id] ?? 0) + count;
      count = 0;
    }
  }
  return tokens;
}
