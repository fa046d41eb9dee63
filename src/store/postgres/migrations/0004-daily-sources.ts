import type { Migration } from "../../migration.js";

/**
 * 0004 daily sources (Postgres). Why: the dashboard's overview draws denials per UTC day stacked by source; the
 * daily rollups of 0002 have no source, so a 30-day window of a million denials meant counting every row. This table
 * holds one row per (day, tool, source), so whole days are read from it and only the partial edge days from
 * `denials`. Triggers keep it exact for every writer (append, prune, scrub, a replayed spool, an older toolgate): +1
 * per inserted row, -1 per deleted row, both when an update changes a row's day, tool or source. Same table and
 * meaning as sqlite/migrations/0004-daily-sources.ts. Nullability: every column NOT NULL (derived from NOT NULL
 * columns of `denials`); `total` may reach 0 after a prune (readers skip such rows). Additive: a new table backfilled
 * from existing rows, one trigger function and two triggers; each inserted or deleted denial costs one upsert.
 */
export const migration0004: Migration = {
  id: 4,
  name: "daily-sources",
  checksum: "fa54bccf5be6eb84",
  sql: `
CREATE TABLE IF NOT EXISTS denial_daily_sources (
  day TEXT NOT NULL,
  tool TEXT NOT NULL,
  source TEXT NOT NULL,
  total BIGINT NOT NULL,
  PRIMARY KEY (day, tool, source)
);
INSERT INTO denial_daily_sources (day, tool, source, total)
  SELECT day, tool, source, count(*) FROM denials GROUP BY day, tool, source;
CREATE OR REPLACE FUNCTION toolgate_denial_daily_sources() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
    UPDATE denial_daily_sources SET total = total - 1
      WHERE day = OLD.day AND tool = OLD.tool AND source = OLD.source;
  END IF;
  IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
    INSERT INTO denial_daily_sources (day, tool, source, total) VALUES (NEW.day, NEW.tool, NEW.source, 1)
      ON CONFLICT (day, tool, source) DO UPDATE SET total = denial_daily_sources.total + 1;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER denials_daily_sources_change AFTER INSERT OR DELETE ON denials
  FOR EACH ROW EXECUTE FUNCTION toolgate_denial_daily_sources();
CREATE TRIGGER denials_daily_sources_update AFTER UPDATE OF day, tool, source ON denials
  FOR EACH ROW WHEN (OLD.day IS DISTINCT FROM NEW.day OR OLD.tool IS DISTINCT FROM NEW.tool
    OR OLD.source IS DISTINCT FROM NEW.source)
  EXECUTE FUNCTION toolgate_denial_daily_sources();
`,
};
