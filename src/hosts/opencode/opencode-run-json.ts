import { isPartsRunLine, readPartsRun } from "../common/message-parts.js";
import type { TranscriptFormat } from "../common/reader-event.js";

/** `opencode run --format json` (1.18): one `{type, timestamp, sessionID, part}` event per line. */
export const opencodeRunJson: TranscriptFormat = {
  id: "opencode-run-json",
  host: "opencode",
  headless: true,
  sniffOrder: 24,
  sniff: (head) => head.some(isPartsRunLine),
  read: readPartsRun,
};
