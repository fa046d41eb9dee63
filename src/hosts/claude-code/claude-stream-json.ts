import type { TranscriptFormat } from "../common/reader-event.js";
import { readStreamJson, sniffFor } from "../common/stream-json.js";

/** `claude -p ... --output-format stream-json --verbose`. */
export const claudeStreamJson: TranscriptFormat = {
  id: "claude-code-stream-json",
  host: "claude-code",
  headless: true,
  sniffOrder: 22,
  sniff: sniffFor("claude_code_version", true),
  read: (source) => readStreamJson(source, { userLinesAreTurns: true }),
};
