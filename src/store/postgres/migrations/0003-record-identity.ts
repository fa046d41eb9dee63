import type { Migration } from "../../migration.js";

/**
 * 0003 record identity (Postgres). Why: `UNIQUE (session_id, seq)` dropped real records. `seq` restarts from 1 when
 * a session's numbering restarts (state lost, or kept locally during an outage), and `ON CONFLICT (session_id,
 * seq) DO NOTHING` then silently skipped whichever record came second (issue 12, class 2: 80 of 161 lost in one
 * run). A record's identity is now (session_id, seq, at, tool_use_id): a replay of the same record still matches
 * and is skipped, records of two numberings are all kept. The index hashes the two free-text columns (md5) so an
 * odd, very long session or tool-use id can never exceed the btree row limit and poison a batch. Audit events get
 * `event_key` (minted once per event by the spooled store, before the first attempt) so a replayed batch of
 * events is stored once too.
 * Nullability: `event_key` is NULL for events written without one (direct writes, rows from before this
 * migration); NULLs never conflict, so those are always stored.
 * Additive except for dropping the old constraint (what this migration fixes); no row is changed. Same meaning as
 * sqlite/migrations/0003-record-identity.ts.
 */
export const migration0003: Migration = {
  id: 3,
  name: "record-identity",
  checksum: "00a72b8f265da0d3",
  sql: `
CREATE UNIQUE INDEX IF NOT EXISTS denials_identity ON denials (md5(session_id), seq, at, md5(tool_use_id));
ALTER TABLE denials DROP CONSTRAINT IF EXISTS denials_session_id_seq_key;
CREATE INDEX IF NOT EXISTS denials_session_seq ON denials (session_id, seq);
ALTER TABLE audit_events ADD COLUMN IF NOT EXISTS event_key TEXT;
CREATE UNIQUE INDEX IF NOT EXISTS audit_events_key ON audit_events (event_key);
`,
};
