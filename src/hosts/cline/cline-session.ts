import { asRecord, asString, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { clineToolCall } from "./cline-call.js";
import { clineErrorText } from "./cline-error-text.js";

/**
 * Cline session files (`~/.cline/data/sessions/<id>/<id>.messages.json`, 3.0.65): one pretty-printed JSON object,
 * `{ version, agent, sessionId, origin, messages }`, with Anthropic-style messages: `tool_use` blocks in assistant
 * messages, `tool_result` blocks (`is_error`, the text as the model read it) in user messages. A user message
 * with text is a turn (Cline wraps the prompt in `<user_input>`).
 */
export const clineSession: TranscriptFormat = {
  id: "cline-session",
  host: "cline",
  headless: false,
  sniffOrder: 12,
  sniff(head) {
    return (
      head[0]?.trim() === "{" &&
      head.some((line) => /^\s*"agent": "/.test(line)) &&
      head.some((line) => /^\s*"sessionId": "/.test(line))
    );
  },
  read: readClineSession,
};

function blocks(message: Record<string, unknown>): Record<string, unknown>[] {
  const content = Array.isArray(message["content"]) ? (message["content"] as unknown[]) : [];
  return content.map(asRecord).filter((block): block is Record<string, unknown> => block !== undefined);
}

function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => asString(asRecord(part)?.["text"]) ?? "").join("");
  }
  return "";
}

function* readClineSession(source: ReaderSource): Generator<ReaderFact> {
  const lines: string[] = [];
  for (const line of source.lines()) lines.push(line);
  let document: Record<string, unknown> | undefined;
  try {
    document = asRecord(JSON.parse(lines.join("\n")) as unknown);
  } catch {
    document = undefined;
  }
  if (document === undefined) {
    source.skip();
    return;
  }
  const sessionId = asString(document["sessionId"]) ?? source.fallbackSessionId;
  yield { type: "session", sessionId, at: timeOf(document["updated_at"], source.fallbackAt) };
  const messages = Array.isArray(document["messages"]) ? (document["messages"] as unknown[]) : [];
  for (const item of messages) {
    const message = asRecord(item);
    if (message === undefined) {
      source.skip();
      continue;
    }
    const at = timeOf(message["ts"], source.fallbackAt);
    const role = message["role"];
    if (role === "assistant") {
      for (const block of blocks(message)) {
        if (block["type"] !== "tool_use") continue;
        const call = clineToolCall({ toolCallId: block["id"], toolName: block["name"], input: block["input"] });
        yield { type: "call", sessionId, at, id: call.toolUseId, tool: call.tool, input: call.input };
      }
    } else if (role === "user") {
      const results = blocks(message).filter((block) => block["type"] === "tool_result");
      if (results.length === 0) {
        if (blocks(message).some((block) => block["type"] === "text")) yield { type: "turn", sessionId, at };
        continue;
      }
      for (const block of results) {
        const text = resultText(block["content"]);
        const error = block["is_error"] === true;
        yield {
          type: "result",
          sessionId,
          at,
          id: String(block["tool_use_id"]),
          ...(typeof block["name"] === "string" ? { tool: block["name"] } : {}),
          outcome: error ? "error" : "success",
          text: error ? clineErrorText(text) : text,
        };
      }
    }
  }
}

/** an empty stream of facts */
const NOTHING: Iterable<ReaderFact> = [];

/**
 * The session's summary file beside it (`<id>/<id>.json`: `session_id`, `source`, `pid`, times, `messages_path`):
 * Cline's own, holding no call. Claimed so that no other host's JSON reader takes it for a session of its own;
 * it yields nothing (its calls are in the messages file).
 */
export const clineSessionSummary: TranscriptFormat = {
  id: "cline-session-summary",
  host: "cline",
  headless: false,
  sniffOrder: 12,
  sniff(head) {
    return (
      head[0]?.trim() === "{" &&
      head.some((line) => /^\s*"session_id": "/.test(line)) &&
      head.some((line) => /^\s*"source": "/.test(line)) &&
      head.some((line) => /^\s*"pid": \d/.test(line))
    );
  },
  read: () => NOTHING,
};
