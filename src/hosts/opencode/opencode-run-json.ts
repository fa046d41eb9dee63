import { asRecord, asString, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { OpencodeSteps } from "./opencode-part.js";

/** `opencode run --format json` (1.18): one `{type, timestamp, sessionID, part}` event per line. */
export const opencodeRunJson: TranscriptFormat = {
  id: "opencode-run-json",
  host: "opencode",
  headless: true,
  sniffOrder: 24,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      return record !== undefined && typeof record["sessionID"] === "string" && asRecord(record["part"]) !== undefined;
    });
  },
  read: readOpencodeRun,
};

async function* readOpencodeRun(source: ReaderSource): AsyncGenerator<ReaderFact> {
  const steps = new OpencodeSteps();
  let announced: string | undefined;
  for await (const line of source.lines()) {
    if (line.length === 0) continue;
    const record = parseObject(line);
    const part = record === undefined ? undefined : asRecord(record["part"]);
    if (record === undefined || part === undefined) {
      // `opencode run` also prints `! permission requested: ...; auto-rejecting` outside the JSON
      if (!line.startsWith("! permission requested")) source.skip();
      continue;
    }
    const sessionId = asString(record["sessionID"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (announced !== sessionId) {
      yield* steps.flush(0);
      announced = sessionId;
      yield { type: "session", sessionId, at, interactive: false };
    }
    yield* steps.part({ part, sessionId, at });
  }
  yield* steps.flush(0);
}
