import { FlatMembers, stringMemberText, stringOpener } from "../common/line-members.js";
import { asRecord, asString, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { usageTokens } from "../common/usage-tokens.js";

/**
 * Qwen Code chat files (`~/.qwen/projects/<cwd>/chats/<id>.jsonl`, 0.24): `parts` (the shape of the CLI Qwen Code forked) in Claude-style
 * records. Calls are `functionCall` parts of `assistant` records; results `tool_result` records whose
 * `toolCallResult.errorType` is `execution_denied` for a refused call (the text names the deny rule).
 */
export const qwenChat: TranscriptFormat = {
  id: "qwen-chat",
  host: "qwen",
  headless: false,
  sniffOrder: 11,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      return (
        record !== undefined && typeof record["sessionId"] === "string" && typeof record["provenance"] === "string"
      );
    });
  },
  read: readQwenChat,
};

function parts(record: Record<string, unknown>): Record<string, unknown>[] {
  const message = asRecord(record["message"]);
  const list = Array.isArray(message?.["parts"]) ? (message["parts"] as unknown[]) : [];
  return list.map(asRecord).filter((part): part is Record<string, unknown> => part !== undefined);
}

const TYPE = stringOpener("type");
const PROVENANCE = stringOpener("provenance");

function* readQwenChat(source: ReaderSource): Generator<ReaderFact> {
  let announced: string | undefined;
  let announcedMember: string | undefined;
  let prompted = false;
  /**
   * The lines of the announced session that cannot yield are left unparsed: its line's flat head (line-members.ts)
   * says the record's `type` and `sessionId`. The bulk of a chat file, `system` records (telemetry, attribution
   * snapshots), and any other type but `user`, `assistant` and `tool_result`; a `user` record a person did not write
   * (its `provenance`); an `assistant` record without a `functionCall` and a `tool_result` without a
   * `functionResponse` (the names tested as written: a line with a `\u` escape, where a key could be spelled another
   * way, is parsed).
   */
  const members = new FlatMembers();
  const keep = (line: string): boolean => {
    if (announcedMember === undefined || !members.top(line) || !members.holds(announcedMember)) return true;
    switch (members.string(TYPE)) {
      case undefined:
        return true;
      case "user": {
        const provenance = members.string(PROVENANCE);
        return provenance === undefined || provenance === "real_user";
      }
      case "assistant":
        return line.includes('"functionCall"') || line.includes("\\u");
      case "tool_result":
        return line.includes('"functionResponse"') || line.includes("\\u");
      default:
        return false;
    }
  };
  // the per-line work in a plain function, the generator kept small (stream-json.ts: a long-running async generator
  // is compiled whole, again after each deoptimisation while a run warms up)
  const onLine = (line: string, found: ReaderFact[]): void => {
    const typed = typedRecord(line, source);
    if (typed === undefined) return;
    const { record, type } = typed;
    const sessionId = asString(record["sessionId"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (announced !== sessionId) {
      announced = sessionId;
      announcedMember = stringMemberText("sessionId", sessionId);
      const project = asString(record["cwd"]);
      found.push(
        project === undefined ? { type: "session", sessionId, at } : { type: "session", sessionId, at, project },
      );
    }
    if (type === "user" && record["provenance"] === "real_user") {
      found.push({ type: "turn", sessionId, at });
      // the person's first prompt describes the session
      const prompt = parts(record)
        .map((part) => asString(part["text"]) ?? "")
        .join("\n");
      if (!prompted && prompt.trim() !== "") {
        prompted = true;
        found.push({ type: "session", sessionId, at, prompt });
      }
    } else if (type === "assistant") {
      let tokens = usageTokens(record["usageMetadata"]);
      for (const part of parts(record)) {
        const call = asRecord(part["functionCall"]);
        if (call === undefined) continue;
        found.push({
          type: "call",
          sessionId,
          at,
          id: String(call["id"]),
          tool: String(call["name"]),
          input: call["args"],
          tokens,
        });
        tokens = 0;
      }
    } else if (type === "tool_result") {
      const result = asRecord(record["toolCallResult"]) ?? {};
      for (const part of parts(record)) {
        const response = asRecord(part["functionResponse"]);
        if (response === undefined) continue;
        const body = asRecord(response["response"]) ?? {};
        const error = asString(body["error"]);
        const display = asRecord(result["resultDisplay"]);
        const exitCode = typeof display?.["exitCode"] === "number" ? display["exitCode"] : undefined;
        found.push({
          type: "result",
          sessionId,
          at,
          id: String(response["id"] ?? result["callId"]),
          tool: String(response["name"]),
          outcome: error === undefined && result["status"] !== "error" ? "success" : "error",
          text: error ?? asString(body["output"]) ?? "",
          ...(exitCode === undefined ? {} : { exitCode }),
          ...(result["errorType"] === "execution_denied" ? { denial: {} } : {}),
        });
      }
    }
  };
  const found: ReaderFact[] = [];
  for (const line of source.lines(keep)) {
    if (line.length === 0) continue;
    onLine(line, found);
    if (found.length === 0) continue;
    for (const fact of found) yield fact;
    found.length = 0;
  }
}
