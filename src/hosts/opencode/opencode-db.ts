import { isSqliteFile, readPartsDb } from "../common/parts-db.js";
import type { TranscriptFormat } from "../common/reader-event.js";

/** opencode 1.18's SQLite database (`~/.local/share/opencode/opencode.db`), opened read-only. */
export const opencodeDb: TranscriptFormat = {
  id: "opencode-db",
  host: "opencode",
  headless: false,
  recordsMode: true,
  sniffOrder: 0,
  sniffFile: isSqliteFile,
  sniff(head) {
    return (head[0] ?? "").startsWith("SQLite format 3");
  },
  read: readPartsDb,
};
