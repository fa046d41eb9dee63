import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { PartSteps } from "./message-parts.js";
import { asString, parseObject } from "./read-lines.js";
import type { ReaderFact, ReaderSource } from "./reader-event.js";

/**
 * A SQLite session database of message parts (`session`, `message` and `part` tables; a forked host keeps its
 * parent's tables and adds its own; each host's format names its file). Opened read-only; parts are streamed in session order with `iterate()` (one row in memory at a time); a
 * user message's first part is a turn; a session with a `parent_id` is a subagent's child session. The mode is in the
 * session's own permission ruleset (`permission`, where the table has it): the headless `run` command creates its
 * session with `question`, `plan_enter` and `plan_exit` denied (nobody can answer them), so such a session, and its
 * child sessions, are headless; any other session does not say.
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

export function* readPartsDb(source: ReaderSource): Generator<ReaderFact> {
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
    const headless = new Set<string>();
    const columns = new Set((db.prepare("PRAGMA table_info(session)").all() as { name: string }[]).map((c) => c.name));
    const permission = columns.has("permission") ? "permission" : "NULL AS permission";
    for (const row of db.prepare(`SELECT id, parent_id, ${permission} FROM session`).iterate() as Iterable<{
      id: string;
      parent_id: string | null;
      permission: string | null;
    }>) {
      sessions.set(row.id, row.parent_id);
      if (deniesQuestions(row.permission)) headless.add(row.id);
    }
    const isHeadless = (id: string): boolean => {
      // a child session is headless when a session it descends from is (bounded: a cycle of parents ends the walk)
      let at: string | null | undefined = id;
      for (let depth = 0; at && depth < 64; depth += 1) {
        if (headless.has(at)) return true;
        at = sessions.get(at);
      }
      return false;
    };
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
        yield {
          type: "session",
          sessionId,
          at,
          ...(parent ? { parentSessionId: parent } : {}),
          ...(isHeadless(sessionId) ? { interactive: false } : {}),
        };
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

/** Whether a session's permission ruleset (JSON) denies `question` and `plan_enter` for every pattern: a `run` session. */
function deniesQuestions(ruleset: string | null): boolean {
  if (ruleset === null || !ruleset.includes('"question"')) return false;
  let rules: unknown;
  try {
    rules = JSON.parse(ruleset);
  } catch {
    return false;
  }
  if (!Array.isArray(rules)) return false;
  const denied = (name: string) =>
    rules.some((rule: { permission?: unknown; action?: unknown; pattern?: unknown } | null) => {
      return rule?.permission === name && rule.action === "deny" && rule.pattern === "*";
    });
  return denied("question") && denied("plan_enter");
}
