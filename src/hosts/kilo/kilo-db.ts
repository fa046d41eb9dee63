import { isPartsRunLine, readPartsRun } from "../common/message-parts.js";
import { isSqliteFile, readPartsDb, sqliteTableNames } from "../common/parts-db.js";
import type { TranscriptFormat } from "../common/reader-event.js";

/**
 * Kilo CLI 7.7's session database, `$XDG_DATA_HOME/kilo/kilo.db` (`~/.local/share`): Kilo kept its parent's storage,
 * so the `session`, `message` and `part` tables read as its parent's do. Told apart by content, not by name: Kilo adds
 * tables of its own (`kilo_board`, `kilo_board_message` in 7.7.7), so a SQLite file with a `kilo_` table is Kilo's.
 * Tried before its parent's database.
 */
export const kiloDb: TranscriptFormat = {
  id: "kilo-db",
  host: "kilo",
  headless: false,
  recordsMode: true,
  sniffOrder: -1,
  sniffFile: (file) => isSqliteFile(file) && [...sqliteTableNames(file)].some((name) => name.startsWith("kilo_")),
  sniff: () => false,
  read: readPartsDb,
};

/**
 * `kilo run --format json` (7.7.7): its parent's run lines, word for word, so without `--host kilo` such a log reads
 * as its parent's run log; `--host kilo` reads it as Kilo's.
 */
export const kiloRunJson: TranscriptFormat = {
  id: "kilo-run-json",
  host: "kilo",
  headless: true,
  sniffOrder: 26,
  // the same lines as its parent's, whose format is tried first (24) and claims them; this one reads them under --host kilo
  sniff: (head) => head.some(isPartsRunLine),
  read: readPartsRun,
};
