import type { Migration } from "../../migration.js";

/**
 * 0009 session summary (Postgres). Why: the dashboard's sessions list sorted or filtered by a figure (loops, aborts,
 * wasted calls, tokens, status) computed the figures of every session of the window from the `denial_daily_calls`
 * rollup (seconds on 1,000,000 denials). Three tables, kept exact by a trigger for every writer (append, prune,
 * scrub, a replayed spool, an older toolgate), as 0008's:
 * - `denial_session_calls`: one row per (session, agent, tool, signature) with its count (a call denied
 *   REPEATED_DENIAL_LOOP = 3 times or more is a host loop in core/figures.ts);
 * - `denial_session_patterns`: one row per (session, agent, tool, pattern) with its count (every denial of a
 *   pattern after its first is a wasted call);
 * - `denial_sessions`: one row per session with its denials, saved calls (sources loop and aborted), distinct
 *   patterns, distinct tools among its calls denied 3 times or more (`loop_tools`), first and last time, smallest
 *   and largest host and labels (as text; equal when every denial has the same) and parent session.
 * An insert statement adds to the three tables once per distinct key (a statement-level trigger over the inserted
 * rows: the store appends a batch in one statement) and recounts the patterns and loop tools of the sessions it
 * touched; a delete, or an update of a keyed column, subtracts from the call and pattern rows (deleting those at
 * zero) and recounts the session row from `denials` through the (session_id, at) index (row-level triggers).
 * It also moves 0008's insert work on `denial_daily_calls` to a statement-level trigger (the same sums, one upsert
 * per distinct key per statement; deletes and updates keep 0008's row-level recount): the row-level upserts had
 * cut the write rate by a third.
 * An absent agent or host is '' and absent labels '{}'. Indexes (last_at), (first_at). Additive: new tables
 * backfilled from existing rows, four functions and three triggers. Same tables and meaning as
 * sqlite/migrations/0009-session-summary.ts.
 */
export const migration0009: Migration = {
  id: 9,
  name: "session-summary",
  checksum: "9f15f8101497b720",
  sql: `
CREATE TABLE denial_sessions (
  session_id TEXT PRIMARY KEY,
  denials BIGINT NOT NULL,
  saved_calls BIGINT NOT NULL,
  patterns BIGINT NOT NULL DEFAULT 0,
  loop_tools BIGINT NOT NULL DEFAULT 0,
  first_at BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  host_min TEXT NOT NULL,
  host_max TEXT NOT NULL,
  labels_min TEXT NOT NULL,
  labels_max TEXT NOT NULL,
  parent_session_id TEXT
);
CREATE TABLE denial_session_calls (
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  tool TEXT NOT NULL,
  signature TEXT NOT NULL,
  total BIGINT NOT NULL,
  PRIMARY KEY (session_id, agent, tool, signature)
);
CREATE TABLE denial_session_patterns (
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  tool TEXT NOT NULL,
  pattern TEXT NOT NULL,
  total BIGINT NOT NULL,
  PRIMARY KEY (session_id, agent, tool, pattern)
);
INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
  SELECT session_id, coalesce(agent_id, ''), tool, signature, count(*) FROM denials
  GROUP BY session_id, coalesce(agent_id, ''), tool, signature;
INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
  SELECT session_id, coalesce(agent_id, ''), tool, pattern, count(*) FROM denials
  GROUP BY session_id, coalesce(agent_id, ''), tool, pattern;
INSERT INTO denial_sessions (session_id, denials, saved_calls, patterns, loop_tools, first_at, last_at, host_min,
    host_max, labels_min, labels_max, parent_session_id)
  SELECT session_id, count(*), count(*) FILTER (WHERE source IN ('loop', 'aborted')),
    (SELECT count(*) FROM denial_session_patterns AS p WHERE p.session_id = d.session_id),
    (SELECT count(DISTINCT tool) FROM denial_session_calls AS c WHERE c.session_id = d.session_id AND c.total >= 3),
    min(at), max(at), min(coalesce(host, '')), max(coalesce(host, '')), min(coalesce(labels::text, '{}')),
    max(coalesce(labels::text, '{}')), max(parent_session_id)
  FROM denials AS d GROUP BY session_id;
CREATE INDEX denial_sessions_last ON denial_sessions (last_at);
CREATE INDEX denial_sessions_first ON denial_sessions (first_at);
CREATE OR REPLACE FUNCTION toolgate_denial_session_recount(target TEXT) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE denial_sessions SET (denials, saved_calls, first_at, last_at, host_min, host_max, labels_min, labels_max,
      parent_session_id, loop_tools) = (SELECT count(*), count(*) FILTER (WHERE source IN ('loop', 'aborted')),
      coalesce(min(at), 0), coalesce(max(at), 0), coalesce(min(coalesce(host, '')), ''),
      coalesce(max(coalesce(host, '')), ''), coalesce(min(coalesce(labels::text, '{}')), '{}'),
      coalesce(max(coalesce(labels::text, '{}')), '{}'), max(parent_session_id),
      (SELECT count(DISTINCT tool) FROM denial_session_calls WHERE session_id = target AND total >= 3)
      FROM denials WHERE session_id = target)
    WHERE session_id = target;
  DELETE FROM denial_sessions WHERE session_id = target AND denials = 0;
END
$$;
CREATE OR REPLACE FUNCTION toolgate_denial_session_remove(key denials) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  n BIGINT;
BEGIN
  UPDATE denial_session_calls SET total = total - 1 WHERE session_id = key.session_id
    AND agent = coalesce(key.agent_id, '') AND tool = key.tool AND signature = key.signature RETURNING total INTO n;
  IF n <= 0 THEN
    DELETE FROM denial_session_calls WHERE session_id = key.session_id AND agent = coalesce(key.agent_id, '')
      AND tool = key.tool AND signature = key.signature;
  END IF;
  UPDATE denial_session_patterns SET total = total - 1 WHERE session_id = key.session_id
    AND agent = coalesce(key.agent_id, '') AND tool = key.tool AND pattern = key.pattern RETURNING total INTO n;
  IF n <= 0 THEN
    DELETE FROM denial_session_patterns WHERE session_id = key.session_id AND agent = coalesce(key.agent_id, '')
      AND tool = key.tool AND pattern = key.pattern;
    UPDATE denial_sessions SET patterns = patterns - 1 WHERE session_id = key.session_id;
  END IF;
END
$$;
CREATE OR REPLACE FUNCTION toolgate_denial_sessions_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO denial_sessions (session_id, denials, saved_calls, first_at, last_at, host_min, host_max, labels_min,
      labels_max, parent_session_id)
    SELECT session_id, count(*), count(*) FILTER (WHERE source IN ('loop', 'aborted')), min(at), max(at),
      min(coalesce(host, '')), max(coalesce(host, '')), min(coalesce(labels::text, '{}')),
      max(coalesce(labels::text, '{}')), max(parent_session_id)
    FROM inserted GROUP BY session_id
    ON CONFLICT (session_id) DO UPDATE SET denials = denial_sessions.denials + excluded.denials,
      saved_calls = denial_sessions.saved_calls + excluded.saved_calls,
      first_at = LEAST(denial_sessions.first_at, excluded.first_at),
      last_at = GREATEST(denial_sessions.last_at, excluded.last_at),
      host_min = LEAST(denial_sessions.host_min, excluded.host_min),
      host_max = GREATEST(denial_sessions.host_max, excluded.host_max),
      labels_min = LEAST(denial_sessions.labels_min, excluded.labels_min),
      labels_max = GREATEST(denial_sessions.labels_max, excluded.labels_max),
      parent_session_id = GREATEST(denial_sessions.parent_session_id, excluded.parent_session_id);
  INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
    SELECT session_id, coalesce(agent_id, ''), tool, signature, count(*) FROM inserted
    GROUP BY session_id, coalesce(agent_id, ''), tool, signature
    ON CONFLICT (session_id, agent, tool, signature) DO UPDATE SET total = denial_session_calls.total + excluded.total;
  INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
    SELECT session_id, coalesce(agent_id, ''), tool, pattern, count(*) FROM inserted
    GROUP BY session_id, coalesce(agent_id, ''), tool, pattern
    ON CONFLICT (session_id, agent, tool, pattern) DO UPDATE SET total = denial_session_patterns.total + excluded.total;
  UPDATE denial_sessions AS s SET
      patterns = (SELECT count(*) FROM denial_session_patterns AS p WHERE p.session_id = s.session_id),
      loop_tools = (SELECT count(DISTINCT tool) FROM denial_session_calls AS c
        WHERE c.session_id = s.session_id AND c.total >= 3)
    WHERE s.session_id IN (SELECT DISTINCT session_id FROM inserted);
  RETURN NULL;
END
$$;
CREATE OR REPLACE FUNCTION toolgate_denial_sessions() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n BIGINT;
BEGIN
  PERFORM toolgate_denial_session_remove(OLD);
  IF TG_OP = 'UPDATE' THEN
    INSERT INTO denial_sessions (session_id, denials, saved_calls, first_at, last_at, host_min, host_max, labels_min,
        labels_max, parent_session_id)
      VALUES (NEW.session_id, 0, 0, NEW.at, NEW.at, '', '', '{}', '{}', NULL) ON CONFLICT (session_id) DO NOTHING;
    INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
      VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.signature, 1)
      ON CONFLICT (session_id, agent, tool, signature) DO UPDATE SET total = denial_session_calls.total + 1;
    INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
      VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.pattern, 1)
      ON CONFLICT (session_id, agent, tool, pattern) DO UPDATE SET total = denial_session_patterns.total + 1
      RETURNING total INTO n;
    IF n = 1 THEN
      UPDATE denial_sessions SET patterns = patterns + 1 WHERE session_id = NEW.session_id;
    END IF;
    PERFORM toolgate_denial_session_recount(NEW.session_id);
  END IF;
  PERFORM toolgate_denial_session_recount(OLD.session_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER denials_session_summary_insert AFTER INSERT ON denials REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION toolgate_denial_sessions_inserted();
CREATE TRIGGER denials_session_summary_delete AFTER DELETE ON denials
  FOR EACH ROW EXECUTE FUNCTION toolgate_denial_sessions();
CREATE TRIGGER denials_session_summary_update AFTER UPDATE OF session_id, agent_id, tool, signature, pattern, source,
    host, labels, at, parent_session_id ON denials
  FOR EACH ROW WHEN (OLD.session_id IS DISTINCT FROM NEW.session_id OR OLD.agent_id IS DISTINCT FROM NEW.agent_id
    OR OLD.tool IS DISTINCT FROM NEW.tool OR OLD.signature IS DISTINCT FROM NEW.signature
    OR OLD.pattern IS DISTINCT FROM NEW.pattern OR OLD.source IS DISTINCT FROM NEW.source
    OR OLD.host IS DISTINCT FROM NEW.host OR OLD.labels IS DISTINCT FROM NEW.labels OR OLD.at IS DISTINCT FROM NEW.at
    OR OLD.parent_session_id IS DISTINCT FROM NEW.parent_session_id)
  EXECUTE FUNCTION toolgate_denial_sessions();
DROP TRIGGER denials_daily_calls_change ON denials;
CREATE TRIGGER denials_daily_calls_delete AFTER DELETE ON denials
  FOR EACH ROW EXECUTE FUNCTION toolgate_denial_daily_calls();
CREATE OR REPLACE FUNCTION toolgate_denial_daily_calls_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
      canonical_tool, parent_session_id, total, first_id, first_at, last_at)
    SELECT day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
      coalesce(labels, '{}'::jsonb), min(canonical_tool), max(parent_session_id), count(*), min(id), min(at), max(at)
    FROM inserted
    GROUP BY day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
      coalesce(labels, '{}'::jsonb)
    ON CONFLICT (day, session_id, agent, tool, signature, source, pattern, host, labels) DO UPDATE SET
      total = denial_daily_calls.total + excluded.total,
      first_id = LEAST(denial_daily_calls.first_id, excluded.first_id),
      first_at = LEAST(denial_daily_calls.first_at, excluded.first_at),
      last_at = GREATEST(denial_daily_calls.last_at, excluded.last_at),
      parent_session_id = coalesce(denial_daily_calls.parent_session_id, excluded.parent_session_id);
  RETURN NULL;
END
$$;
CREATE TRIGGER denials_daily_calls_insert AFTER INSERT ON denials REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION toolgate_denial_daily_calls_inserted();
`,
};
