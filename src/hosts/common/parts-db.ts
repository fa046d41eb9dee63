import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { PartSteps } from "./message-parts.js";
import { asString, parseObject } from "./read-lines.js";
import type { ReaderFact, ReaderSource } from "./reader-event.js";

/**
 * A SQLite session database of message parts (`session`, `message` and `part` tables; a forked host keeps its
 * parent's tables and adds its own; each host's format names its file). Opened read-only; parts are streamed in session order with `iterate()` (one row in memory at a time); a
 * user message's first part is a turn; a session with a `parent_id` is a subagent's child session.
 */
const require = createRequire(import.meta.url);
const SQLITE_MAGIC = "SQLite format 3\u0000";

/** true when the file starts with the SQLite header */
export function isSqliteFile(file: string): boolean {
  try {
    const buffer = Buffer.alloc(16);
    const fd = openSync(file, "r");
    try {
      readSync(fd, buffer, 0, 16, 0);
    } finally {
      closeSync(fd);
    }
    return buffer.toString("latin1") === SQLITE_MAGIC;
  } catch {
    return false;
  }
}

interface PartRow {
  session_id: string;
  time_created: number;
  data: string;
  role: string | null;
  message_id: string;
}

/** The names of a SQLite file's tables (opened read-only), or an empty set when it cannot be opened. */
export function sqliteTableNames(file: string): Set<string> {
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  try {
    const db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      return new Set(
        (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
          (row) => row.name,
        ),
      );
    } finally {
      db.close();
    }
  } catch {
    return new Set();
  }
}

export async function* readPartsDb(source: ReaderSource): AsyncGenerator<ReaderFact> {
  const Database = require("better-sqlite3") as typeof import("better-sqlite3");
  const db = new Database(source.file, { readonly: true, fileMustExist: true });
  try {
    const tables = new Set(
      (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map(
        (row) => row.name,
      ),
    );
    // another program's SQLite database: nothing to read
    if (!tables.has("part") || !tables.has("session") || !tables.has("message")) return;
    const sessions = new Map<string, string | null>();
    for (const row of db.prepare("SELECT id, parent_id FROM session").iterate() as Iterable<{
      id: string;
      parent_id: string | null;
    }>) {
      sessions.set(row.id, row.parent_id);
    }
    const rows = db
      .prepare(
        "SELECT p.session_id, p.time_created, p.data, p.message_id, json_extract(m.data, '$.role') AS role " +
          "FROM part p JOIN message m ON m.id = p.message_id ORDER BY p.session_id, p.time_created, p.id",
      )
      .iterate() as Iterable<PartRow>;
    const steps = new PartSteps();
    let current: string | undefined;
    let lastUserMessage: string | undefined;
    for (const row of rows) {
      const sessionId = row.session_id;
      const at = row.time_created;
      if (sessionId !== current) {
        for (const each of steps.flush(0)) yield each;
        current = sessionId;
        const parent = sessions.get(sessionId);
        yield parent ? { type: "session", sessionId, at, parentSessionId: parent } : { type: "session", sessionId, at };
      }
      if (row.role === "user") {
        if (row.message_id !== lastUserMessage) {
          lastUserMessage = row.message_id;
          yield { type: "turn", sessionId, at };
        }
        continue;
      }
      const part = parseObject(row.data);
      if (part === undefined) {
        source.skip();
        continue;
      }
      if (asString(part["type"]) === undefined) continue;
      for (const each of steps.part({ part, sessionId, at })) yield each;
    }
    for (const each of steps.flush(0)) yield each;
  } finally {
    db.close();
  }
}
