import type { Migration } from "../../migration.js";

/**
 * 0008 daily calls (SQLite). Why: the dashboard's host and label filters, its sessions list and every figure of
 * core/figures.ts (loops, waste, saved calls, status) counted every row of the window: 5 to 7 s per view on
 * 1,000,000 denials. This table holds one row per (UTC day, session, agent, tool, signature, source, pattern, host,
 * labels) with its count, first id and first and last time, so whole days are read from it (filtered by host and
 * label like `denials`) and only the partial edge days from `denials`. Agents repeat the same few calls, so it is a
 * fraction of `denials`. Triggers keep it exact for every writer (append, prune, scrub, a replayed spool, an older
 * toolgate): an insert adds to its row; a delete, or an update of a keyed column, recounts the old row's key from
 * `denials` through the (session_id, at) index (so first id and times stay exact). Same table and meaning as
 * postgres/migrations/0008-daily-calls.ts. Nullability: every column NOT NULL except canonical_tool and
 * parent_session_id (as in `denials`); an absent agent or host is '' and absent labels '{}' (they are part of the
 * key). Indexes: (session_id, day) for one session's rows, (host, day) for the host filter. Additive: a new table
 * backfilled from existing rows, and three triggers.
 */
export const migration0008: Migration = {
  id: 8,
  name: "daily-calls",
  checksum: "14387ffe91f983bf",
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
  labels TEXT NOT NULL,
  canonical_tool TEXT,
  parent_session_id TEXT,
  total INTEGER NOT NULL,
  first_id INTEGER NOT NULL,
  first_at INTEGER NOT NULL,
  last_at INTEGER NOT NULL,
  PRIMARY KEY (day, session_id, agent, tool, signature, source, pattern, host, labels)
) WITHOUT ROWID;
INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels, canonical_tool,
    parent_session_id, total, first_id, first_at, last_at)
  SELECT day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
    coalesce(labels, '{}'), min(canonical_tool), max(parent_session_id), count(*), min(id), min(at), max(at)
  FROM denials
  GROUP BY day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
    coalesce(labels, '{}');
CREATE INDEX denial_daily_calls_session ON denial_daily_calls (session_id, day);
CREATE INDEX denial_daily_calls_host ON denial_daily_calls (host, day);
CREATE TRIGGER denials_daily_calls_insert AFTER INSERT ON denials BEGIN
  INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
      canonical_tool, parent_session_id, total, first_id, first_at, last_at)
    VALUES (NEW.day, NEW.session_id, coalesce(NEW.agent_id, ''), NEW.tool, NEW.signature, NEW.source, NEW.pattern,
      coalesce(NEW.host, ''), coalesce(NEW.labels, '{}'), NEW.canonical_tool, NEW.parent_session_id, 1, NEW.id,
      NEW.at, NEW.at)
    ON CONFLICT (day, session_id, agent, tool, signature, source, pattern, host, labels) DO UPDATE SET
      total = total + 1, first_id = min(first_id, excluded.first_id), first_at = min(first_at, excluded.first_at),
      last_at = max(last_at, excluded.last_at),
      parent_session_id = coalesce(parent_session_id, excluded.parent_session_id);
END;
CREATE TRIGGER denials_daily_calls_delete AFTER DELETE ON denials BEGIN
  DELETE FROM denial_daily_calls WHERE day = OLD.day AND session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND signature = OLD.signature AND source = OLD.source
    AND pattern = OLD.pattern AND host = coalesce(OLD.host, '') AND labels = coalesce(OLD.labels, '{}');
  INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
      canonical_tool, parent_session_id, total, first_id, first_at, last_at)
    SELECT OLD.day, OLD.session_id, coalesce(OLD.agent_id, ''), OLD.tool, OLD.signature, OLD.source, OLD.pattern,
      coalesce(OLD.host, ''), coalesce(OLD.labels, '{}'), min(canonical_tool), max(parent_session_id), count(*),
      min(id), min(at), max(at)
    FROM denials WHERE session_id = OLD.session_id AND day = OLD.day AND coalesce(agent_id, '') = coalesce(OLD.agent_id, '')
      AND tool = OLD.tool AND signature = OLD.signature AND source = OLD.source AND pattern = OLD.pattern
      AND coalesce(host, '') = coalesce(OLD.host, '') AND coalesce(labels, '{}') = coalesce(OLD.labels, '{}')
    HAVING count(*) > 0;
END;
CREATE TRIGGER denials_daily_calls_update AFTER UPDATE OF day, session_id, agent_id, tool, signature, source, pattern,
    host, labels, at, canonical_tool, parent_session_id ON denials
  WHEN OLD.day IS NOT NEW.day OR OLD.session_id IS NOT NEW.session_id OR OLD.agent_id IS NOT NEW.agent_id
    OR OLD.tool IS NOT NEW.tool OR OLD.signature IS NOT NEW.signature OR OLD.source IS NOT NEW.source
    OR OLD.pattern IS NOT NEW.pattern OR OLD.host IS NOT NEW.host OR OLD.labels IS NOT NEW.labels
    OR OLD.at IS NOT NEW.at OR OLD.canonical_tool IS NOT NEW.canonical_tool
    OR OLD.parent_session_id IS NOT NEW.parent_session_id BEGIN
  DELETE FROM denial_daily_calls WHERE (day = OLD.day AND session_id = OLD.session_id
    AND agent = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND signature = OLD.signature AND source = OLD.source
    AND pattern = OLD.pattern AND host = coalesce(OLD.host, '') AND labels = coalesce(OLD.labels, '{}'))
    OR (day = NEW.day AND session_id = NEW.session_id
    AND agent = coalesce(NEW.agent_id, '') AND tool = NEW.tool AND signature = NEW.signature AND source = NEW.source
    AND pattern = NEW.pattern AND host = coalesce(NEW.host, '') AND labels = coalesce(NEW.labels, '{}'));
  INSERT INTO denial_daily_calls (day, session_id, agent, tool, signature, source, pattern, host, labels,
      canonical_tool, parent_session_id, total, first_id, first_at, last_at)
    SELECT day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
      coalesce(labels, '{}'), min(canonical_tool), max(parent_session_id), count(*), min(id), min(at), max(at)
    FROM denials WHERE session_id IN (OLD.session_id, NEW.session_id) AND day IN (OLD.day, NEW.day)
      AND ((coalesce(agent_id, '') = coalesce(OLD.agent_id, '') AND tool = OLD.tool AND signature = OLD.signature
        AND source = OLD.source AND pattern = OLD.pattern AND coalesce(host, '') = coalesce(OLD.host, '')
        AND coalesce(labels, '{}') = coalesce(OLD.labels, '{}') AND session_id = OLD.session_id AND day = OLD.day)
      OR (coalesce(agent_id, '') = coalesce(NEW.agent_id, '') AND tool = NEW.tool AND signature = NEW.signature
        AND source = NEW.source AND pattern = NEW.pattern AND coalesce(host, '') = coalesce(NEW.host, '')
        AND coalesce(labels, '{}') = coalesce(NEW.labels, '{}') AND session_id = NEW.session_id AND day = NEW.day))
    GROUP BY day, session_id, coalesce(agent_id, ''), tool, signature, source, pattern, coalesce(host, ''),
      coalesce(labels, '{}');
END;
`,
};
