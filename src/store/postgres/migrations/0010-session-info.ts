import type { Migration } from "../../migration.js";

/**
 * 0010 session info (Postgres). Why: the sessions list showed bare session ids: a person could not tell which project
 * a session worked in or what it was asked (issue 26 item 3). One row per session: the project (the host's working
 * directory) and the first line of the first prompt, both redacted and bounded to 200 characters by the core
 * (core/session-info.ts) before they reach a store. Written from `session.info` audit events (the hook at the first
 * prompt, `analyze --save` from a transcript); the first value of each column wins (later writes fill only what is
 * still NULL). `at` is when the session was first described (prune removes rows older than its cut). Nullability:
 * session_id and at NOT NULL; project and first_prompt nullable (a host may send one without the other). Index:
 * (project) for the dashboard's project filter. Additive: a new table, nothing backfilled (older sessions stay
 * undescribed until `analyze --save` reads their transcripts). Same table and meaning as
 * sqlite/migrations/0010-session-info.ts.
 */
export const migration0010: Migration = {
  id: 10,
  name: "session-info",
  checksum: "b3708c825665550c",
  sql: `
CREATE TABLE session_info (
  session_id TEXT PRIMARY KEY,
  project TEXT,
  first_prompt TEXT,
  at BIGINT NOT NULL
);
CREATE INDEX session_info_project ON session_info (project);
`,
};
