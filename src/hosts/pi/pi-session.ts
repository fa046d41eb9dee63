import { asRecord, asString, contentText, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { firstNestedMembers, flatMembers, memberValue, objectLine } from "../common/skip-lines.js";
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

/** the entry types and message roles the reader reads */
const READ_TYPES = new Set(["session", "message", "message_end"]);
const READ_ROLES = new Set(["user", "assistant", "toolResult"]);

/**
 * Whether a line of an announced session surely yields nothing (skip-lines.ts): an entry of a type not read
 * (`model_change`, ...), or a message whose role is not read (the system prompt, the bulk of a session file).
 */
function yieldsNothing(line: string): boolean {
  if (!objectLine(line)) return false;
  const type = memberValue(flatMembers(line), "type");
  if (type === undefined) return false;
  if (!READ_TYPES.has(type)) return true;
  if (type === "session") return false;
  const message = firstNestedMembers(line, "message");
  const role = message === undefined ? undefined : memberValue(message, "role");
  return role !== undefined && !READ_ROLES.has(role);
}

async function* readPiSession(source: ReaderSource): AsyncGenerator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  for await (const line of source.lines((line) => !announced || !yieldsNothing(line))) {
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
