import { FlatMembers, objectOpener, stringMemberText, stringOpener } from "../common/line-members.js";
import { asRecord, asString, contentText, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
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

const TYPE = stringOpener("type");
const ROLE = stringOpener("role");
const TIMESTAMP = stringOpener("timestamp");
const MESSAGE = objectOpener("message");

/** what a line of an announced session does, read from its text (`PiLineReader`) */
export const LineAction = { parse: 0, nothing: 1, turn: 2 } as const;
type Action = (typeof LineAction)[keyof typeof LineAction];

/**
 * What a line of an announced session does, from its flat members (line-members.ts), without parsing it: `nothing`
 * for an entry of a type not read (`model_change`, ...), a message whose role is not read (the system prompt, the
 * bulk of a session file), an assistant message without a tool call (no `"toolCall"` in the line, and no `\u` escape
 * that could spell one) or the session's own header again; `turn` for a user message with its `timestamp` a flat
 * string (its time in `turnAt`); `parse` otherwise.
 */
export class PiLineReader {
  private readonly members = new FlatMembers();
  /** `"id":"<session id>"`: the session's header, read again, does nothing */
  private header: string | undefined;
  /** the time of the last line read as a `turn` */
  turnAt = 0;

  constructor(private readonly fallbackAt: number) {}

  announce(sessionId: string): void {
    this.header = stringMemberText("id", sessionId);
  }

  action(line: string): Action {
    const { members } = this;
    if (!members.top(line)) return LineAction.parse;
    const type = members.string(TYPE);
    if (type === undefined) return LineAction.parse;
    if (!READ_TYPES.has(type)) return LineAction.nothing;
    if (type === "session") {
      return this.header !== undefined && members.holds(this.header) ? LineAction.nothing : LineAction.parse;
    }
    // where the line's own timestamp begins, before stepping into its message
    const timestamp = members.valueStart(TIMESTAMP);
    const topEnd = members.end;
    if (!members.enter(MESSAGE)) return LineAction.parse;
    const role = members.string(ROLE);
    if (role === undefined) return LineAction.parse;
    if (!READ_ROLES.has(role)) return LineAction.nothing;
    if (role === "assistant") {
      return line.includes('"toolCall"') || line.includes("\\u") ? LineAction.parse : LineAction.nothing;
    }
    const close = timestamp === -1 ? -1 : line.indexOf('"', timestamp);
    if (role !== "user" || close === -1 || close >= topEnd) return LineAction.parse;
    this.turnAt = timeOf(line.slice(timestamp, close), this.fallbackAt);
    return LineAction.turn;
  }
}

function* readPiSession(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  const reader = new PiLineReader(source.fallbackAt);
  // what `keep` read from the line it let through last (the line the loop gets next)
  let readLine: string | undefined;
  let readAction: Action = LineAction.parse;
  const keep = (line: string): boolean => {
    if (!announced) return true;
    const action = reader.action(line);
    if (action === LineAction.nothing) return false;
    readLine = line;
    readAction = action;
    return true;
  };
  for (const line of source.lines(keep)) {
    if (line.length === 0) continue;
    const action = line === readLine ? readAction : announced ? reader.action(line) : LineAction.parse;
    readLine = undefined;
    if (action === LineAction.nothing) continue;
    if (action === LineAction.turn) {
      yield { type: "turn", sessionId, at: reader.turnAt };
      continue;
    }
    const record = parseObject(line);
    if (record === undefined || typeof record["type"] !== "string") {
      source.skip();
      continue;
    }
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (record["type"] === "session") {
      if (typeof record["id"] === "string") sessionId = record["id"];
      reader.announce(sessionId);
      if (!announced) {
        announced = true;
        yield { type: "session", sessionId, at };
      }
      continue;
    }
    if (!announced) {
      announced = true;
      reader.announce(sessionId);
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
      let tokens: number | undefined;
      for (const block of message["content"]) {
        const call = asRecord(block);
        if (call?.["type"] !== "toolCall") continue;
        // the step's usage goes to its first call (counted once a call is met, as it was for any)
        tokens ??= usageTokens(message["usage"]);
        const id = asString(call["id"]);
        const tool = asString(call["name"]);
        if (id === undefined || tool === undefined) continue;
        yield { type: "call", sessionId, at, id, tool, input: call["arguments"] ?? {}, tokens };
        tokens = 0;
      }
    } else if (role === "toolResult") {
      const id = asString(message["toolCallId"]);
      if (id === undefined) continue;
      const tool = asString(message["toolName"]);
      const outcome = message["isError"] === true ? "error" : "success";
      const text = contentText(message["content"]);
      yield tool === undefined
        ? { type: "result", sessionId, at, id, outcome, text }
        : { type: "result", sessionId, at, id, tool, outcome, text };
    }
  }
}
