import { asRecord, asString, parseObject } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";

/**
 * A `gemini -p ... -o json` log as CI keeps it (`2>&1`): `Error executing tool <tool>: <text>` lines on stderr,
 * then one JSON document (several lines) with `session_id` and `stats.tools.byName.<tool>.{count,success,fail}`.
 * Inputs are not in this output, so its calls are opaque: counted and classified, never compared for loops.
 * Policy denials count as `fail`, not as `decisions.reject`, so they are told apart by the stderr text.
 */
const ERROR_LINE = /^Error executing tool ([\w.-]+): (.*)$/;
const MAX_DOCUMENT = 8 * 1024 * 1024;

export const geminiOutputLog: TranscriptFormat = {
  id: "gemini-json-output",
  host: "gemini",
  headless: true,
  sniffOrder: 30,
  plainText: true,
  sniff(head) {
    return (
      head.some((line) => ERROR_LINE.test(line) || /^\s*"session_id": "/.test(line)) &&
      head.some((line) => line.trim() === "{" || ERROR_LINE.test(line))
    );
  },
  read: readGeminiOutput,
};

async function* readGeminiOutput(source: ReaderSource): AsyncGenerator<ReaderFact> {
  const sessionId = source.fallbackSessionId;
  const at = source.fallbackAt;
  const errors: { tool: string; text: string }[] = [];
  let document: string[] | undefined;
  let size = 0;
  for await (const line of source.lines()) {
    if (document !== undefined) {
      document.push(line);
      size += line.length;
      if (size > MAX_DOCUMENT) {
        source.skip();
        document = undefined;
      }
      continue;
    }
    const error = ERROR_LINE.exec(line);
    if (error !== null) errors.push({ tool: error[1] as string, text: (error[2] as string).slice(0, 4000) });
    else if (line === "{") document = [line];
  }
  const parsed = document === undefined ? undefined : parseObject(document.join("\n"));
  if (document !== undefined && parsed === undefined) source.skip();
  const id = asString(parsed?.["session_id"]) ?? sessionId;
  yield { type: "session", sessionId: id, at, interactive: false };
  const byName = asRecord(asRecord(asRecord(parsed?.["stats"])?.["tools"])?.["byName"]) ?? {};
  let sequence = 0;
  const emit = function* (tool: string, outcome: "success" | "error", text: string): Generator<ReaderFact> {
    sequence += 1;
    const callId = `${id}-${sequence}`;
    yield { type: "call", sessionId: id, at, id: callId, tool, input: {}, opaque: true };
    yield { type: "result", sessionId: id, at, id: callId, outcome, text };
  };
  const failsSeen = new Map<string, number>();
  for (const error of errors) {
    failsSeen.set(error.tool, (failsSeen.get(error.tool) ?? 0) + 1);
    yield* emit(error.tool, "error", error.text);
  }
  for (const [tool, value] of Object.entries(byName)) {
    const stats = asRecord(value) ?? {};
    const success = typeof stats["success"] === "number" ? stats["success"] : 0;
    const fail = typeof stats["fail"] === "number" ? stats["fail"] : 0;
    for (let index = 0; index < success; index++) yield* emit(tool, "success", "");
    for (let index = failsSeen.get(tool) ?? 0; index < fail; index++)
      yield* emit(tool, "error", "(failed; no text in this output)");
  }
}
