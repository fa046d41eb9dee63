import type { Migration } from "../../migration.js";

/**
 * 0011 more tool names (SQLite). Why: a review of the hosts in November 2026 found tools the tool table
 * (core/tool-families.ts) did not know (`monitor`, `zoom_image`, `notebook_edit`, `send_file`). A row stored
 * before under one of those names was back-filled as its own canonical tool in family `other`; this gives it the
 * table's identity, as 0007 did (its VALUES list is the table's new names, lower-cased;
 * test/store/migration-0005.test.ts checks it with 0005's and 0007's against the code). The daily-calls rollup
 * follows through its update trigger (0008). Nullability and indexes unchanged. Same meaning as
 * postgres/migrations/0011-more-tool-names.ts.
 */
export const migration0011: Migration = {
  id: 11,
  name: "more-tool-names",
  checksum: "ff74451c9c9ec244",
  sql: `
CREATE TABLE toolgate_tool_names_0011 (name TEXT PRIMARY KEY, canonical_tool TEXT NOT NULL, tool_family TEXT NOT NULL);
INSERT INTO toolgate_tool_names_0011 (name, canonical_tool, tool_family) VALUES
  ('monitor', 'shell', 'shell'),
  ('notebook_edit', 'notebook_edit', 'edit'),
  ('send_file', 'read', 'read'),
  ('zoom_image', 'view_image', 'read');
UPDATE denials SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0011 n WHERE n.name = lower(denials.tool)),
  tool_family = (SELECT n.tool_family FROM toolgate_tool_names_0011 n WHERE n.name = lower(denials.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0011);
UPDATE denial_daily SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0011 n WHERE n.name = lower(denial_daily.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0011);
UPDATE denial_daily_sessions SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0011 n WHERE n.name = lower(denial_daily_sessions.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0011);
UPDATE denial_daily_sources SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0011 n WHERE n.name = lower(denial_daily_sources.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0011);
DROP TABLE toolgate_tool_names_0011;
`,
};
