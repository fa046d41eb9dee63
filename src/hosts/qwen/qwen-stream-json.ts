import type { TranscriptFormat } from "../common/reader-event.js";
import { readStreamJson, sniffFor } from "../common/stream-json.js";

/** `qwen -p ... --output-format stream-json`. */
export const qwenStreamJson: TranscriptFormat = {
  id: "qwen-stream-json",
  host: "qwen",
  headless: true,
  sniffOrder: 21,
  sniff: sniffFor("qwen_code_version", false),
  read: (source) => readStreamJson(source, { userLinesAreTurns: false }),
};
