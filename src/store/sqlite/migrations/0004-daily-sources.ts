import type { Migration } from "../../migration.js";

/**
 * 0004 daily sources (SQLite). Why: the dashboard's overview draws denials per UTC day stacked by source; the daily
 * rollups of 0002 have no source, and counting the rows of a 30-day window of 1,000,000 denials took 1.7 to 2.1 s on
 * the 2-core test machine even through a covering index. This table holds one row per (day, tool, source), so whole
 * days are read from it and only the partial edge days from `denials`. Triggers keep it exact for every writer
 * (append, prune, scrub, a replayed spool, an older toolgate): +1 per inserted row, -1 per deleted row, both when an
 * update changes a row's day, tool or source. Same table and meaning as postgres/migrations/0004-daily-sources.ts.
 * Nullability: every column NOT NULL (derived from NOT NULL columns of `denials`); `total` may reach 0 after a prune
 * (readers skip such rows). Additive: a new table backfilled from existing rows, and three triggers; each inserted
 * or deleted denial costs one upsert into this small table.
 */
export const migration0004: Migration = {
  id: 4,
  name: "daily-sources",
  checksum: "8306aafef8d6fc31",
  sql: `
CREATE TABLE IF NOT EXISTS denial_daily_sources (
  day TEXT NOT NULL,
  tool TEXT NOT NULL,
  source TEXT NOT NULL,
  total INTEGER NOT NULL,
  PRIMARY KEY (day, tool, source)
) WITHOUT ROWID;
INSERT INTO denial_daily_sources (day, tool, source, total)
  SELECT day, tool, source, count(*) FROM denials GROUP BY day, tool, source;
CREATE TRIGGER IF NOT EXISTS denials_daily_sources_insert AFTER INSERT ON denials BEGIN
  INSERT INTO denial_daily_sources (day, tool, source, total) VALUES (NEW.day, NEW.tool, NEW.source, 1)
    ON CONFLICT (day, tool, source) DO UPDATE SET total = total + 1;
END;
CREATE TRIGGER IF NOT EXISTS denials_daily_sources_delete AFTER DELETE ON denials BEGIN
  UPDATE denial_daily_sources SET total = total - 1
    WHERE day = OLD.day AND tool = OLD.tool AND source = OLD.source;
END;
CREATE TRIGGER IF NOT EXISTS denials_daily_sources_update AFTER UPDATE OF day, tool, source ON denials
  WHEN OLD.day IS NOT NEW.day OR OLD.tool IS NOT NEW.tool OR OLD.source IS NOT NEW.source BEGIN
  UPDATE denial_daily_sources SET total = total - 1
    WHERE day = OLD.day AND tool = OLD.tool AND source = OLD.source;
  INSERT INTO denial_daily_sources (day, tool, source, total) VALUES (NEW.day, NEW.tool, NEW.source, 1)
    ON CONFLICT (day, tool, source) DO UPDATE SET total = total + 1;
END;
`,
};
