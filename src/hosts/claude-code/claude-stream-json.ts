import { parseObject } from "../common/read-lines.js";
import type { TranscriptFormat } from "../common/reader-event.js";
import { readStreamJson, sniffFor } from "../common/stream-json.js";

const sniffStream = sniffFor("claude_code_version", true);

/**
 * `claude -p ... --output-format stream-json --verbose`, and `claude -p ... --output-format json`: one `result`
 * line with the session id and the `permission_denials` list (the stream's last line alone).
 */
export const claudeStreamJson: TranscriptFormat = {
  id: "claude-code-stream-json",
  host: "claude-code",
  headless: true,
  sniffOrder: 22,
  sniff: (head) =>
    sniffStream(head) ||
    head.some((line) => {
      const record = parseObject(line);
      return (
        record?.["type"] === "result" &&
        typeof record["session_id"] === "string" &&
        Array.isArray(record["permission_denials"])
      );
    }),
  read: (source) => readStreamJson(source, { userLinesAreTurns: true }),
};
