import type { Migration } from "../../migration.js";

/**
 * 0001 init (SQLite). Why: the first schema — denial records, audit events, session state, as in
 * postgres/migrations/0001-init.ts (same columns, same meaning). Nullability: every field a record always has is
 * NOT NULL; optional record fields (parent_session_id, agent_id, rule, decision_reason_type, host, labels) are
 * NULL when absent. JSON lives in TEXT columns (tool_input, labels, detail, state). Additive: creates tables only.
 */
export const migration0001: Migration = {
  id: 1,
  name: "init",
  checksum: "604a8796fc1f9361",
  sql: `
CREATE TABLE IF NOT EXISTS denials (
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
  labels TEXT,
  UNIQUE (session_id, seq)
);
CREATE INDEX IF NOT EXISTS denials_at ON denials (at);
CREATE INDEX IF NOT EXISTS denials_tool_at ON denials (tool, at);
CREATE INDEX IF NOT EXISTS denials_signature ON denials (signature);
CREATE TABLE IF NOT EXISTS audit_events (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent_id TEXT,
  turn INTEGER NOT NULL,
  at INTEGER NOT NULL,
  tool TEXT,
  tool_use_id TEXT,
  detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_at ON audit_events (at);
CREATE INDEX IF NOT EXISTS audit_events_session ON audit_events (session_id, at);
CREATE TABLE IF NOT EXISTS session_state (
  session_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  state TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
`,
};
