import type { Migration } from "../../migration.js";

/**
 * 0002 daily rollups (SQLite). Why: `toolgate report` over a million denials must answer in well under a second;
 * these tables hold one row per (UTC day, tool, signature) and per (UTC day, tool, session), kept current by every
 * append and prune in the same transaction, so whole days are read from them and only the partial edge days from
 * `denials`. Same tables and meaning as postgres/migrations/0002-daily-rollups.ts. Nullability: every column
 * NOT NULL (each is derived from NOT NULL columns of `denials`). Additive: new tables, backfilled from existing rows, and an index on denials (session_id, at) for per-session
 * counts.
 */
export const migration0002: Migration = {
  id: 2,
  name: "daily-rollups",
  checksum: "0e37599882dfb795",
  sql: `
CREATE TABLE IF NOT EXISTS denial_daily (
  day TEXT NOT NULL,
  tool TEXT NOT NULL,
  signature TEXT NOT NULL,
  total INTEGER NOT NULL,
  first_id INTEGER NOT NULL,
  PRIMARY KEY (day, tool, signature)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS denial_daily_sessions (
  day TEXT NOT NULL,
  tool TEXT NOT NULL,
  session_id TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (day, tool, session_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS denials_session_at ON denials (session_id, at);
INSERT INTO denial_daily (day, tool, signature, total, first_id)
  SELECT day, tool, signature, count(*), min(id) FROM denials GROUP BY day, tool, signature;
INSERT INTO denial_daily_sessions (day, tool, session_id, total)
  SELECT day, tool, session_id, count(*) FROM denials GROUP BY day, tool, session_id;
`,
};
