import { asRecord, asString, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * `gemini -p ... -o stream-json` (0.61): `init`, `message`, `tool_use` {tool_name, tool_id, parameters},
 * `tool_result` {tool_id, status, output, error:{type, message}}, `result`. A policy denial is an error of type
 * `policy_violation`; the text is recognised second.
 */
export const geminiStreamJson: TranscriptFormat = {
  id: "gemini-stream-json",
  host: "gemini",
  headless: true,
  sniffOrder: 23,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      if (record?.["type"] === "init") return typeof record["session_id"] === "string" && !("subtype" in record);
      // a log cut before its init line (an excerpt, a CI log's tail): Gemini's flat tool lines carry a `tool_id`
      return (
        (record?.["type"] === "tool_use" || record?.["type"] === "tool_result") && typeof record["tool_id"] === "string"
      );
    });
  },
  read: readGeminiStream,
};

function* readGeminiStream(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  for (const line of source.lines()) {
    if (line.length === 0) continue;
    const typed = typedRecord(line, source);
    if (typed === undefined) continue;
    const { record, type } = typed;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (type === "init") sessionId = asString(record["session_id"]) ?? sessionId;
    if (!announced) {
      announced = true;
      yield { type: "session", sessionId, at, interactive: false };
    }
    if (type === "message" && record["role"] === "user") {
      yield { type: "turn", sessionId, at };
    } else if (type === "tool_use") {
      const id = String(record["tool_id"]);
      yield { type: "call", sessionId, at, id, tool: String(record["tool_name"]), input: record["parameters"] };
    } else if (type === "tool_result") {
      const error = asRecord(record["error"]);
      const text = asString(error?.["message"]) ?? asString(record["output"]) ?? "";
      const policy = error?.["type"] === "policy_violation";
      yield {
        type: "result",
        sessionId,
        at,
        id: String(record["tool_id"]),
        outcome: record["status"] === "success" ? "success" : "error",
        text,
        // a policy refusal: the text says whether a deny rule or an ask nobody could answer (else `rule`)
        ...(policy ? { denial: {} } : {}),
      };
    }
  }
}
