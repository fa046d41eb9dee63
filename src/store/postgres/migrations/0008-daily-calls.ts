import type { Migration } from "../../migration.js";

/**
 * 0008 daily calls (Postgres). Why: the dashboard's host and label filters, its sessions list and every figure of
 * core/figures.ts (loops, waste, saved calls, status) counted every row of the window: seconds per view on
 * 1,000,000 denials. This table holds one row per (UTC day, session, agent, tool, signature, source, pattern, host,
 * labels) with its count, first id and first and last time, so whole days are read from it (filtered by host and
 * label like `denials`) and only the partial edge days from `denials`. Agents repeat the same few calls, so it is a
 * fraction of `denials`. A trigger keeps it exact for every writer (append, prune, scrub, a replayed spool, an older
 * toolgate): an insert adds to its row; a delete, or an update of a keyed column, recounts the old (and new) row's
 * key from `denials` through the (session_id, at) index, so first id and times stay exact. Same table and meaning
 * as sqlite/migrations/0008-daily-calls.ts. Nullability: every column NOT NULL except canonical_tool and
 * parent_session_id (as in `denials`); an absent agent or host is '' and absent labels '{}' (they are part of the
 * key). Indexes: (session_id, day) for one session's rows, (host, day) for the host filter. Additive: a new table
 * backfilled from existing rows, one trigger function and two triggers.
 */
export const migration0008: Migration = {
  id: 8,
  name: "daily-calls",
  checksum: "92fdeca997945ace",
  sql: `
CREATE TABLE denial_daily_calls (
  day TEXT NOT NULL,
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  tool TEXT NOT NULL,
  signature TEXT NOT NULL,
  source TEXT NOT NULL,
  pattern TEXT NOT NULL,
  host TEXT NOT NULL,
  labels JSONB NOT NULL,
  canonical_tool TEXT,
  parent_session_id TEXT,
  total BIGINT NOT NULL,
  first_id BIGINT NOT NULL,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (day, session_id, agent, tool, signature, source, pattern, host, labels)
);
INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels, canonical_tool,
    parent_session_id, total, first_id, first_at, last_at)
  SELECT day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
    coalesce(labels, '{}'::jsonb), min(canonical_tool), max(parent_session_id), count(*), min(id), min(at), max(at)
  FROM denials
  GROUP BY day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
    coalesce(labels, '{}'::jsonb);
CREATE INDEX denial_daily_calls_session ON denial_daily_calls (session_id, day);
CREATE INDEX denial_daily_calls_host ON denial_daily_calls (host, day);
CREATE OR REPLACE FUNCTION toolgate_denial_daily_calls_recount(key denials) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM denial_daily_calls WHERE day = key.day AND session_id = key.session_id
    AND agent = coalesce(key.agent_id, '') AND tool = key.tool AND signature = key.signature AND source = key.source
    AND pattern = key.pattern AND host = coalesce(key.host, '') AND labels = coalesce(key.labels, '{}'::jsonb);
  INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
      canonical_tool, parent_session_id, total, first_id, first_at, last_at)
    SELECT key.day, key.session_id, coalesce(key.agent_id, ''), key.tool, key.signature, key.source, key.pattern,
      coalesce(key.host, ''), coalesce(key.labels, '{}'::jsonb), min(canonical_tool), max(parent_session_id),
      count(*), min(id), min(at), max(at)
    FROM denials WHERE session_id = key.session_id AND day = key.day
      AND coalesce(agent_id, '') = coalesce(key.agent_id, '') AND tool = key.tool AND signature = key.signature
      AND source = key.source AND pattern = key.pattern AND coalesce(host, '') = coalesce(key.host, '')
      AND coalesce(labels, '{}'::jsonb) = coalesce(key.labels, '{}'::jsonb)
    HAVING count(*) > 0;
END
$$;
CREATE OR REPLACE FUNCTION toolgate_denial_daily_calls() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
        canonical_tool, parent_session_id, total, first_id, first_at, last_at)
      VALUES (NEW.day, NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.signature, NEW.source, NEW.pattern,
        coalesce(NEW.host, ''), coalesce(NEW.labels, '{}'::jsonb), NEW.canonical_tool, NEW.parent_session_id, 1,
        NEW.id, NEW.at, NEW.at)
      ON CONFLICT (day, session_id, agent, tool, signature, source, pattern, host, labels) DO UPDATE SET
        total = denial_daily_calls.total + 1, first_id = LEAST(denial_daily_calls.first_id, excluded.first_id),
        first_at = LEAST(denial_daily_calls.first_at, excluded.first_at),
        last_at = GREATEST(denial_daily_calls.last_at, excluded.last_at),
        parent_session_id = coalesce(denial_daily_calls.parent_session_id, excluded.parent_session_id);
  ELSE
    PERFORM toolgate_denial_daily_calls_recount(OLD);
    IF TG_OP = 'UPDATE' THEN
      PERFORM toolgate_denial_daily_calls_recount(NEW);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER denials_daily_calls_change AFTER INSERT OR DELETE ON denials
  FOR EACH ROW EXECUTE FUNCTION toolgate_denial_daily_calls();
CREATE TRIGGER denials_daily_calls_update AFTER UPDATE OF day, session_id, agent_id, tool, signature, source, pattern,
    host, labels, at, canonical_tool, parent_session_id ON denials
  FOR EACH ROW WHEN (OLD.day IS DISTINCT FROM NEW.day OR OLD.session_id IS DISTINCT FROM NEW.session_id
    OR OLD.agent_id IS DISTINCT FROM NEW.agent_id OR OLD.tool IS DISTINCT FROM NEW.tool
    OR OLD.signature IS DISTINCT FROM NEW.signature OR OLD.source IS DISTINCT FROM NEW.source
    OR OLD.pattern IS DISTINCT FROM NEW.pattern OR OLD.host IS DISTINCT FROM NEW.host
    OR OLD.labels IS DISTINCT FROM NEW.labels OR OLD.at IS DISTINCT FROM NEW.at
    OR OLD.canonical_tool IS DISTINCT FROM NEW.canonical_tool
    OR OLD.parent_session_id IS DISTINCT FROM NEW.parent_session_id)
  EXECUTE FUNCTION toolgate_denial_daily_calls();
`,
};
