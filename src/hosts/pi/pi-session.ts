import { asRecord, asString, contentText, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { holdsAny, plainObjectLine, quoted, topLevelKey } from "../common/skip-lines.js";
import { usageTokens } from "../common/usage-tokens.js";

/**
 * pi 1.6.0 session files (`~/.pi/agent/sessions/--<cwd>--/<time>_<id>.jsonl`, `docs/session-format.md`): a header
 * `{"type":"session","version":3,"id",...,"cwd"}`, then entries; `message` entries hold the conversation: a user
 * message (a turn), an assistant message whose `toolCall` blocks are the calls, and a `toolResult` message per call
 * (`isError`, the text the model read). pi has no permission system, so a refusal is an extension's block: its text
 * decides (pi's denial table). `pi --mode json` output starts with the same header and carries each message whole in
 * its `message_end` line, so the same reader reads it.
 */
export const piSession: TranscriptFormat = {
  id: "pi-session",
  host: "pi",
  headless: false,
  sniffOrder: 14,
  sniff(head) {
    const first = parseObject(head[0] ?? "");
    return (
      first !== undefined &&
      first["type"] === "session" &&
      typeof first["id"] === "string" &&
      typeof first["version"] === "number" &&
      typeof first["cwd"] === "string"
    );
  },
  read: readPiSession,
};

const TYPED = Buffer.from('"type":"');
const SESSION = quoted("session");
const MESSAGES = quoted("message", "message_end");
const ROLE_FIRST = Buffer.from('"message":{"role":"');
const READ_ROLES = quoted("user", "assistant", "toolResult");

/**
 * Whether a line of an announced session yields nothing, surely (skip-lines.ts): a top-level `type` that is a string
 * and not `session`, and either no message at all (`model_change`, ...) or a message whose role is a string the
 * reader does not read (the system prompt, the bulk of a session file).
 */
function yieldsNothing(bytes: Buffer): boolean {
  if (!plainObjectLine(bytes) || holdsAny(bytes, SESSION) || !topLevelKey(bytes, TYPED)) return false;
  if (!holdsAny(bytes, MESSAGES)) return true;
  return topLevelKey(bytes, ROLE_FIRST) && !holdsAny(bytes, READ_ROLES);
}

async function* readPiSession(source: ReaderSource): AsyncGenerator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  for await (const line of source.lines((bytes) => !announced || !yieldsNothing(bytes))) {
    if (line.length === 0) continue;
    const record = parseObject(line);
    if (record === undefined || typeof record["type"] !== "string") {
      source.skip();
      continue;
    }
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (record["type"] === "session") {
      if (typeof record["id"] === "string") sessionId = record["id"];
      if (!announced) {
        announced = true;
        yield { type: "session", sessionId, at };
      }
      continue;
    }
    if (!announced) {
      announced = true;
      yield { type: "session", sessionId, at: source.fallbackAt };
    }
    // `message` entries in a session file; `message_end` lines in `pi --mode json` output (the same message, final)
    if (record["type"] !== "message" && record["type"] !== "message_end") continue;
    const message = asRecord(record["message"]);
    const role = asString(message?.["role"]);
    if (message === undefined || role === undefined) {
      source.skip();
      continue;
    }
    if (role === "user") {
      yield { type: "turn", sessionId, at };
    } else if (role === "assistant" && Array.isArray(message["content"])) {
      const calls = message["content"].map(asRecord).filter((block) => block?.["type"] === "toolCall");
      let tokens = calls.length === 0 ? 0 : usageTokens(message["usage"]);
      for (const call of calls) {
        const id = asString(call?.["id"]);
        const tool = asString(call?.["name"]);
        if (id === undefined || tool === undefined) continue;
        yield { type: "call", sessionId, at, id, tool, input: call?.["arguments"] ?? {}, tokens };
        tokens = 0;
      }
    } else if (role === "toolResult") {
      const id = asString(message["toolCallId"]);
      if (id === undefined) continue;
      const tool = asString(message["toolName"]);
      yield {
        type: "result",
        sessionId,
        at,
        id,
        ...(tool === undefined ? {} : { tool }),
        outcome: message["isError"] === true ? "error" : "success",
        text: contentText(message["content"]),
      };
    }
  }
}
