import type { Migration } from "../../migration.js";

/**
 * 0009 session summary (SQLite). Why: the dashboard's sessions list sorted or filtered by a figure (loops, aborts,
 * wasted calls, tokens, status) computed the figures of every session of the window from the `denial_daily_calls`
 * rollup (seconds on 1,000,000 denials). Three tables, kept exact by triggers for every writer (append, prune, scrub,
 * a replayed spool, an older toolgate), as 0008's:
 * - `denial_session_calls`: one row per (session, agent, tool, signature) with its count (a call denied
 *   REPEATED_DENIAL_LOOP = 3 times or more is a host loop in core/figures.ts);
 * - `denial_session_patterns`: one row per (session, agent, tool, pattern) with its count (every denial of a
 *   pattern after its first is a wasted call);
 * - `denial_sessions`: one row per session with its denials, saved calls (sources loop and aborted), distinct
 *   patterns, distinct tools among its calls denied 3 times or more (`loop_tools`), first and last time, smallest
 *   and largest host and labels (equal when every denial has the same) and parent session.
 * An insert adds to the three rows; a delete, or an update of a keyed column, subtracts from the call and pattern
 * rows (deleting those at zero) and recounts the session row from `denials` through the (session_id, at) index.
 * `patterns` follows inserts and deletes of pattern rows, `loop_tools` is recounted when a call crosses 3. An absent
 * agent or host is '' and absent labels '{}'. Index (last_at) and (first_at) for the window. Additive: new tables
 * backfilled from existing rows, and triggers. Same tables and meaning as postgres/migrations/0009-session-summary.ts.
 */
export const migration0009: Migration = {
  id: 9,
  name: "session-summary",
  checksum: "a675f06958b836b1",
  sql: `
CREATE TABLE denial_sessions (
  session_id TEXT PRIMARY KEY,
  denials INTEGER NOT NULL,
  saved_calls INTEGER NOT NULL,
  patterns INTEGER NOT NULL DEFAULT 0,
  loop_tools INTEGER NOT NULL DEFAULT 0,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  host_min TEXT NOT NULL,
  host_max TEXT NOT NULL,
  labels_min TEXT NOT NULL,
  labels_max TEXT NOT NULL,
  parent_session_id TEXT
) WITHOUT ROWID;
CREATE TABLE denial_session_calls (
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  tool TEXT NOT NULL,
  signature TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (session_id, agent, tool, signature)
) WITHOUT ROWID;
CREATE TABLE denial_session_patterns (
  session_id TEXT NOT NULL,
  agent TEXT NOT NULL,
  tool TEXT NOT NULL,
  pattern TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (session_id, agent, tool, pattern)
) WITHOUT ROWID;
INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
  SELECT session_id, coalesce(agent_id, ''), tool, signature, count(*) FROM denials
  GROUP BY session_id, coalesce(agent_id, ''), tool, signature;
INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
  SELECT session_id, coalesce(agent_id, ''), tool, pattern, count(*) FROM denials
  GROUP BY session_id, coalesce(agent_id, ''), tool, pattern;
INSERT INTO denial_sessions (session_id, denials, saved_calls, patterns, loop_tools, first_at, last_at, host_min,
    host_max, labels_min, labels_max, parent_session_id)
  SELECT session_id, count(*), sum(source IN ('loop', 'aborted')),
    (SELECT count(*) FROM denial_session_patterns AS p WHERE p.session_id = d.session_id),
    (SELECT count(DISTINCT tool) FROM denial_session_calls AS c WHERE c.session_id = d.session_id AND c.total >= 3),
    min(at), max(at), min(coalesce(host, '')), max(coalesce(host, '')), min(coalesce(labels, '{}')),
    max(coalesce(labels, '{}')), max(parent_session_id)
  FROM denials AS d GROUP BY session_id;
CREATE INDEX denial_sessions_last ON denial_sessions (last_at);
CREATE INDEX denial_sessions_first ON denial_sessions (first_at);
CREATE TRIGGER denial_session_patterns_insert AFTER INSERT ON denial_session_patterns BEGIN
  UPDATE denial_sessions SET patterns = patterns + 1 WHERE session_id = NEW.session_id;
END;
CREATE TRIGGER denial_session_patterns_delete AFTER DELETE ON denial_session_patterns BEGIN
  UPDATE denial_sessions SET patterns = patterns - 1 WHERE session_id = OLD.session_id;
END;
CREATE TRIGGER denial_session_calls_loops AFTER UPDATE OF total ON denial_session_calls
  WHEN (OLD.total >= 3) <> (NEW.total >= 3) BEGIN
  UPDATE denial_sessions SET loop_tools = (SELECT count(DISTINCT tool) FROM denial_session_calls
    WHERE session_id = NEW.session_id AND total >= 3) WHERE session_id = NEW.session_id;
END;
CREATE TRIGGER denials_session_summary_insert AFTER INSERT ON denials BEGIN
  INSERT INTO denial_sessions (session_id, denials, saved_calls, first_at, last_at, host_min, host_max, labels_min,
      labels_max, parent_session_id)
    VALUES (NEW.session_id, 1, NEW.source IN ('loop', 'aborted'), NEW.at, NEW.at, coalesce(NEW.host, ''),
      coalesce(NEW.host, ''), coalesce(NEW.labels, '{}'), coalesce(NEW.labels, '{}'), NEW.parent_session_id)
    ON CONFLICT (session_id) DO UPDATE SET denials = denials + 1, saved_calls = saved_calls + excluded.saved_calls,
      first_at = min(first_at, excluded.first_at), last_at = max(last_at, excluded.last_at),
      host_min = min(host_min, excluded.host_min), host_max = max(host_max, excluded.host_max),
      labels_min = min(labels_min, excluded.labels_min), labels_max = max(labels_max, excluded.labels_max),
      parent_session_id = CASE WHEN parent_session_id IS NULL OR excluded.parent_session_id > parent_session_id
        THEN coalesce(excluded.parent_session_id, parent_session_id) ELSE parent_session_id END;
  INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
    VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.signature, 1)
    ON CONFLICT (session_id, agent, tool, signature) DO UPDATE SET total = total + 1;
  INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
    VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.pattern, 1)
    ON CONFLICT (session_id, agent, tool, pattern) DO UPDATE SET total = total + 1;
END;
CREATE TRIGGER denials_session_summary_delete AFTER DELETE ON denials BEGIN
  UPDATE denial_session_calls SET total = total - 1 WHERE session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND signature = OLD.signature;
  DELETE FROM denial_session_calls WHERE session_id = OLD.session_id AND agent = coalesce(OLD.agent_id, '')
    AND tool = OLD.tool AND signature = OLD.signature AND total <= 0;
  UPDATE denial_session_patterns SET total = total - 1 WHERE session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND pattern = OLD.pattern;
  DELETE FROM denial_session_patterns WHERE session_id = OLD.session_id AND agent = coalesce(OLD.agent_id, '')
    AND tool = OLD.tool AND pattern = OLD.pattern AND total <= 0;
  UPDATE denial_sessions SET (denials, saved_calls, first_at, last_at, host_min, host_max, labels_min, labels_max,
      parent_session_id) = (SELECT count(*), coalesce(sum(source IN ('loop', 'aborted')), 0), coalesce(min(at), 0),
      coalesce(max(at), 0), coalesce(min(coalesce(host, '')), ''), coalesce(max(coalesce(host, '')), ''),
      coalesce(min(coalesce(labels, '{}')), '{}'), coalesce(max(coalesce(labels, '{}')), '{}'), max(parent_session_id)
      FROM denials WHERE session_id = OLD.session_id)
    WHERE session_id = OLD.session_id;
  DELETE FROM denial_sessions WHERE session_id = OLD.session_id AND denials = 0;
END;
CREATE TRIGGER denials_session_summary_update AFTER UPDATE OF session_id, agent_id, tool, signature, pattern, source,
    host, labels, at, parent_session_id ON denials
  WHEN OLD.session_id IS NOT NEW.session_id OR OLD.agent_id IS NOT NEW.agent_id OR OLD.tool IS NOT NEW.tool
    OR OLD.signature IS NOT NEW.signature OR OLD.pattern IS NOT NEW.pattern OR OLD.source IS NOT NEW.source
    OR OLD.host IS NOT NEW.host OR OLD.labels IS NOT NEW.labels OR OLD.at IS NOT NEW.at
    OR OLD.parent_session_id IS NOT NEW.parent_session_id BEGIN
  UPDATE denial_session_calls SET total = total - 1 WHERE session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND signature = OLD.signature;
  DELETE FROM denial_session_calls WHERE session_id = OLD.session_id AND agent = coalesce(OLD.agent_id, '')
    AND tool = OLD.tool AND signature = OLD.signature AND total <= 0;
  UPDATE denial_session_patterns SET total = total - 1 WHERE session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND pattern = OLD.pattern;
  DELETE FROM denial_session_patterns WHERE session_id = OLD.session_id AND agent = coalesce(OLD.agent_id, '')
    AND tool = OLD.tool AND pattern = OLD.pattern AND total <= 0;
  INSERT INTO denial_sessions (session_id, denials, saved_calls, first_at, last_at, host_min, host_max, labels_min,
      labels_max, parent_session_id)
    VALUES (NEW.session_id, 0, 0, NEW.at, NEW.at, '', '', '{}', '{}', NULL)
    ON CONFLICT (session_id) DO NOTHING;
  INSERT INTO denial_session_calls (session_id, agent, tool, signature, total)
    VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.signature, 1)
    ON CONFLICT (session_id, agent, tool, signature) DO UPDATE SET total = total + 1;
  INSERT INTO denial_session_patterns (session_id, agent, tool, pattern, total)
    VALUES (NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.pattern, 1)
    ON CONFLICT (session_id, agent, tool, pattern) DO UPDATE SET total = total + 1;
  UPDATE denial_sessions SET (denials, saved_calls, first_at, last_at, host_min, host_max, labels_min, labels_max,
      parent_session_id) = (SELECT count(*), coalesce(sum(source IN ('loop', 'aborted')), 0), coalesce(min(at), 0),
      coalesce(max(at), 0), coalesce(min(coalesce(host, '')), ''), coalesce(max(coalesce(host, '')), ''),
      coalesce(min(coalesce(labels, '{}')), '{}'), coalesce(max(coalesce(labels, '{}')), '{}'), max(parent_session_id)
      FROM denials WHERE session_id = OLD.session_id)
    WHERE session_id = OLD.session_id;
  UPDATE denial_sessions SET (denials, saved_calls, first_at, last_at, host_min, host_max, labels_min, labels_max,
      parent_session_id) = (SELECT count(*), coalesce(sum(source IN ('loop', 'aborted')), 0), coalesce(min(at), 0),
      coalesce(max(at), 0), coalesce(min(coalesce(host, '')), ''), coalesce(max(coalesce(host, '')), ''),
      coalesce(min(coalesce(labels, '{}')), '{}'), coalesce(max(coalesce(labels, '{}')), '{}'), max(parent_session_id)
      FROM denials WHERE session_id = NEW.session_id)
    WHERE session_id = NEW.session_id;
  DELETE FROM denial_sessions WHERE session_id IN (OLD.session_id, NEW.session_id) AND denials = 0;
END;
`,
};
