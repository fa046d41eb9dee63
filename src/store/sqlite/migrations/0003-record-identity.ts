import type { Migration } from "../../migration.js";

/**
 * 0003 record identity (SQLite). Why: `UNIQUE (session_id, seq)` dropped real records. `seq` restarts from 1 when a
 * session's numbering restarts (state lost, or kept locally during a store outage), and the spool replay then
 * silently skipped every record whose number was already taken (issue 12, class 2). A record's identity is now
 * (session_id, seq, at, tool_use_id): a replay of the same record still matches and is skipped, records of two
 * numberings are all kept. Audit events get `event_key` (minted once per event by the spooled store, before the
 * first attempt) so a replayed batch of events is stored once too.
 * Nullability: `event_key` is NULL for events written without one (direct writes, rows from before this
 * migration); NULLs never conflict, so those are always stored.
 * Not purely additive, by necessity: SQLite cannot drop a table constraint, so `denials` is rebuilt with the same
 * columns, every row and its id, and the AUTOINCREMENT high-water mark (ids are never reused; the daily rollups
 * keep pointing at the same ids). Same meaning as postgres/migrations/0003-record-identity.ts.
 */
export const migration0003: Migration = {
  id: 3,
  name: "record-identity",
  checksum: "6d7098719928d98e",
  sql: `
ALTER TABLE denials RENAME TO denials_before_0003;
CREATE TABLE denials (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  session_id TEXT NOT NULL,
  seq INTEGER NOT NULL,
  parent_session_id TEXT,
  agent_id TEXT,
  turn INTEGER NOT NULL,
  tool TEXT NOT NULL,
  tool_use_id TEXT NOT NULL,
  source TEXT NOT NULL,
  reason TEXT NOT NULL,
  rule TEXT,
  decision_reason_type TEXT,
  signature TEXT NOT NULL,
  pattern TEXT NOT NULL,
  input_summary TEXT NOT NULL,
  tool_input TEXT NOT NULL,
  at INTEGER NOT NULL,
  day TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  host TEXT,
  labels TEXT
);
INSERT INTO denials (id, session_id, seq, parent_session_id, agent_id, turn, tool, tool_use_id, source, reason, rule,
  decision_reason_type, signature, pattern, input_summary, tool_input, at, day, timestamp, host, labels)
  SELECT id, session_id, seq, parent_session_id, agent_id, turn, tool, tool_use_id, source, reason, rule,
  decision_reason_type, signature, pattern, input_summary, tool_input, at, day, timestamp, host, labels
  FROM denials_before_0003 ORDER BY id;
DELETE FROM sqlite_sequence WHERE name = 'denials';
INSERT INTO sqlite_sequence (name, seq)
  SELECT 'denials', max(coalesce((SELECT seq FROM sqlite_sequence WHERE name = 'denials_before_0003'), 0),
    coalesce((SELECT max(id) FROM denials), 0));
DROP TABLE denials_before_0003;
CREATE INDEX denials_at ON denials (at);
CREATE INDEX denials_tool_at ON denials (tool, at);
CREATE INDEX denials_signature ON denials (signature);
CREATE INDEX denials_session_at ON denials (session_id, at);
CREATE UNIQUE INDEX denials_identity ON denials (session_id, seq, at, tool_use_id);
ALTER TABLE audit_events ADD COLUMN event_key TEXT;
CREATE UNIQUE INDEX audit_events_key ON audit_events (event_key);
`,
};
