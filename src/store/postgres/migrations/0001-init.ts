import type { Migration } from "../../migration.js";

/**
 * 0001 init (Postgres). Why: the first schema — denial records, audit events, session state, as in
 * sqlite/migrations/0001-init.ts (same columns, same meaning). Nullability: every field a record always has is
 * NOT NULL; optional record fields (parent_session_id, agent_id, rule, decision_reason_type, host, labels) are
 * NULL when absent. JSON lives in JSONB columns (tool_input, labels, detail, state); `at` is epoch ms (BIGINT) and
 * `day` the UTC day as text, so both engines group identically. Additive: creates tables only.
 */
export const migration0001: Migration = {
  id: 1,
  name: "init",
  checksum: "3ee86061d95f7ff5",
  sql: `
CREATE TABLE IF NOT EXISTS denials (
  id BIGSERIAL PRIMARY KEY,
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
  tool_input JSONB NOT NULL,
  at BIGINT NOT NULL,
  day TEXT NOT NULL,
  timestamp TEXT NOT NULL,
  host TEXT,
  labels JSONB,
  UNIQUE (session_id, seq)
);
CREATE INDEX IF NOT EXISTS denials_at ON denials (at);
CREATE INDEX IF NOT EXISTS denials_tool_at ON denials (tool, at);
CREATE INDEX IF NOT EXISTS denials_signature ON denials (signature);
CREATE TABLE IF NOT EXISTS audit_events (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent_id TEXT,
  turn INTEGER NOT NULL,
  at BIGINT NOT NULL,
  tool TEXT,
  tool_use_id TEXT,
  detail JSONB NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_events_at ON audit_events (at);
CREATE INDEX IF NOT EXISTS audit_events_session ON audit_events (session_id, at);
CREATE TABLE IF NOT EXISTS session_state (
  session_id TEXT PRIMARY KEY,
  version INTEGER NOT NULL,
  state JSONB NOT NULL,
  updated_at BIGINT NOT NULL
);
`,
};
