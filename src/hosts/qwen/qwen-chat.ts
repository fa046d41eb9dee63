import { asRecord, asString, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { flatMembers, member, memberValue, objectLine } from "../common/skip-lines.js";
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

async function* readQwenChat(source: ReaderSource): AsyncGenerator<ReaderFact> {
  let announced: string | undefined;
  let announcedMember: string | undefined;
  let prompted = false;
  /**
   * The bulk of a chat file, `system` records (telemetry, attribution snapshots) of the announced session, is left
   * unparsed: the line's flat head (skip-lines.ts) says its `type` and `sessionId`.
   */
  const keep = (line: string): boolean => {
    if (announcedMember === undefined || !objectLine(line)) return true;
    const head = flatMembers(line);
    return !head.includes(announcedMember) || memberValue(head, "type") !== "system";
  };
  for await (const line of source.lines(keep)) {
    if (line.length === 0) continue;
    const typed = typedRecord(line, source);
    if (typed === undefined) continue;
    const { record, type } = typed;
    const sessionId = asString(record["sessionId"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (announced !== sessionId) {
      announced = sessionId;
      announcedMember = member("sessionId", sessionId);
      const project = asString(record["cwd"]);
      yield project === undefined ? { type: "session", sessionId, at } : { type: "session", sessionId, at, project };
    }
    if (type === "user" && record["provenance"] === "real_user") {
      yield { type: "turn", sessionId, at };
      // the person's first prompt describes the session
      const prompt = parts(record)
        .map((part) => asString(part["text"]) ?? "")
        .join("\n");
      if (!prompted && prompt.trim() !== "") {
        prompted = true;
        yield { type: "session", sessionId, at, prompt };
      }
    } else if (type === "assistant") {
      let tokens = usageTokens(record["usageMetadata"]);
      for (const part of parts(record)) {
        const call = asRecord(part["functionCall"]);
        if (call === undefined) continue;
        yield {
          type: "call",
          sessionId,
          at,
          id: String(call["id"]),
          tool: String(call["name"]),
          input: call["args"],
          tokens,
        };
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
        yield {
          type: "result",
          sessionId,
          at,
          id: String(response["id"] ?? result["callId"]),
          tool: String(response["name"]),
          outcome: error === undefined && result["status"] !== "error" ? "success" : "error",
          text: error ?? asString(body["output"]) ?? "",
          ...(exitCode === undefined ? {} : { exitCode }),
          ...(result["errorType"] === "execution_denied" ? { denial: {} } : {}),
        };
      }
    }
  }
}
