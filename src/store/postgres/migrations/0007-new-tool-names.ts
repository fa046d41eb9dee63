import type { Migration } from "../../migration.js";

/**
 * 0007 tool names of the new hosts (Postgres). Why: the hosts added in November 2026 name tools the
 * tool table (core/tool-families.ts) did not know at migration 0005 (`create`, `run_commands`, `execute`, ...). A row
 * stored before under one of those names was back-filled as its own canonical tool in family `other`; this gives it
 * the table's identity, as 0005 did for the names it listed (its VALUES list is the table's new names, lower-cased;
 * test/store/migration-0005.test.ts checks 0005's and this list together against the code). Nullability and indexes
 * unchanged: the rollups' keys hold the host's tool, not the canonical one. Same meaning as
 * sqlite/migrations/0007-new-tool-names.ts.
 */
export const migration0007: Migration = {
  id: 7,
  name: "new-tool-names",
  checksum: "2abdeac94908efbf",
  sql: `
CREATE TABLE toolgate_tool_names_0007 (name TEXT PRIMARY KEY, canonical_tool TEXT NOT NULL, tool_family TEXT NOT NULL);
INSERT INTO toolgate_tool_names_0007 (name, canonical_tool, tool_family) VALUES
  ('create', 'write', 'edit'),
  ('editor', 'edit', 'edit'),
  ('execute', 'shell', 'shell'),
  ('fetch_web_content', 'web_fetch', 'web'),
  ('find', 'glob', 'search'),
  ('read_files', 'read_many', 'read'),
  ('run_commands', 'shell', 'shell'),
  ('search_codebase', 'grep', 'search');
UPDATE denials SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0007 n WHERE n.name = lower(denials.tool)),
  tool_family = (SELECT n.tool_family FROM toolgate_tool_names_0007 n WHERE n.name = lower(denials.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0007);
UPDATE denial_daily SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0007 n WHERE n.name = lower(denial_daily.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0007);
UPDATE denial_daily_sessions SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0007 n WHERE n.name = lower(denial_daily_sessions.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0007);
UPDATE denial_daily_sources SET
  canonical_tool = (SELECT n.canonical_tool FROM toolgate_tool_names_0007 n WHERE n.name = lower(denial_daily_sources.tool))
  WHERE lower(tool) IN (SELECT name FROM toolgate_tool_names_0007);
DROP TABLE toolgate_tool_names_0007;
`,
};
