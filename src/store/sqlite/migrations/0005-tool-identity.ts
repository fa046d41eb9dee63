import type { Migration } from "../../migration.js";

/**
 * 0005 tool identity (SQLite). Why: records named one tool four ways (`Bash`, `bash`, `run_shell_command`,
 * `exec_command`) and every view grouped by the host's raw name. Each denial now stores its canonical tool and family
 * (core/tool-families.ts) beside the host's `tool`, and the daily rollups carry the canonical tool so views group and
 * filter by it from the rollups. Back-fill: the VALUES list below is the tool table as of this migration (lower-cased
 * names; names differing only in case share an identity), MCP names fold `mcp__<server>__<tool>` into
 * `mcp_<server>_<tool>` as `canonicalMcpName` does, an unknown name is its own canonical tool in family `other`;
 * test/store/migration-0005.test.ts checks the list and the back-fill against the code. The list is written out, not
 * generated, because a migration's SQL never changes once applied (its checksum); a tool name added to the table
 * later needs its own back-fill migration. Nullability: `canonical_tool` and `tool_family` are NULL only for rows
 * no toolgate writes (every writer and this back-fill set them; readers fall back to the table). Indexes: denials
 * (canonical_tool, at) replaces denials (tool, at), which no query filters by any more; each rollup gets
 * (canonical_tool, day). The sources triggers of 0004 are recreated to copy the canonical tool. Same meaning as
 * postgres/migrations/0005-tool-identity.ts.
 */
export const migration0005: Migration = {
  id: 5,
  name: "tool-identity",
  checksum: "c8d7823555ca92ed",
  sql: `
CREATE TABLE toolgate_tool_names_0005 (name TEXT PRIMARY KEY, canonical_tool TEXT NOT NULL, tool_family TEXT NOT NULL);
INSERT INTO toolgate_tool_names_0005 (name, canonical_tool, tool_family) VALUES
  ('apply_patch', 'apply_patch', 'edit'), ('bash', 'shell', 'shell'), ('codesearch', 'code_search', 'search'),
  ('container.exec', 'shell', 'shell'), ('container_exec', 'shell', 'shell'), ('create_file', 'write', 'edit'),
  ('edit', 'edit', 'edit'), ('edit_file', 'edit', 'edit'), ('exec_command', 'shell', 'shell'),
  ('fetch', 'web_fetch', 'web'), ('fileedit', 'edit', 'edit'), ('fileread', 'read', 'read'),
  ('filesearch', 'glob', 'search'), ('filewrite', 'write', 'edit'), ('find_files', 'glob', 'search'),
  ('glob', 'glob', 'search'), ('google_web_search', 'web_search', 'web'), ('grep', 'grep', 'search'),
  ('grep_search', 'grep', 'search'), ('list', 'list', 'read'), ('list_directory', 'list', 'read'),
  ('local_shell', 'shell', 'shell'), ('ls', 'list', 'read'), ('multiedit', 'multi_edit', 'edit'),
  ('notebookedit', 'notebook_edit', 'edit'), ('notebookread', 'notebook_read', 'read'),
  ('patch', 'apply_patch', 'edit'), ('powershell', 'shell', 'shell'), ('read', 'read', 'read'),
  ('read_file', 'read', 'read'), ('read_many_files', 'read_many', 'read'), ('replace', 'edit', 'edit'),
  ('run_shell_command', 'shell', 'shell'), ('search_file_content', 'grep', 'search'), ('shell', 'shell', 'shell'),
  ('shell_command', 'shell', 'shell'), ('view', 'read', 'read'), ('view_image', 'view_image', 'read'),
  ('web_fetch', 'web_fetch', 'web'), ('web_search', 'web_search', 'web'), ('webfetch', 'web_fetch', 'web'),
  ('websearch', 'web_search', 'web'), ('write', 'write', 'edit'), ('write_file', 'write', 'edit');
CREATE TABLE toolgate_tool_identity_0005 (tool TEXT PRIMARY KEY, canonical_tool TEXT NOT NULL, tool_family TEXT NOT NULL);
INSERT INTO toolgate_tool_identity_0005 (tool, canonical_tool, tool_family)
  SELECT d.tool,
    CASE
      WHEN substr(d.tool, 1, 4) <> 'mcp_' OR length(d.tool) <= 4 THEN coalesce(n.canonical_tool, d.tool)
      WHEN substr(d.tool, 5, 1) <> '_' THEN d.tool
      WHEN instr(substr(d.tool, 6), '__') = 0 THEN 'mcp_' || substr(d.tool, 6)
      ELSE 'mcp_' || substr(d.tool, 6, instr(substr(d.tool, 6), '__') - 1) || '_'
        || substr(d.tool, 7 + instr(substr(d.tool, 6), '__'))
    END,
    CASE WHEN substr(d.tool, 1, 4) = 'mcp_' AND length(d.tool) > 4 THEN 'mcp' ELSE coalesce(n.tool_family, 'other') END
  FROM (SELECT tool FROM denials UNION SELECT tool FROM denial_daily UNION SELECT tool FROM denial_daily_sessions
    UNION SELECT tool FROM denial_daily_sources) d
  LEFT JOIN toolgate_tool_names_0005 n ON n.name = lower(d.tool);
DROP TRIGGER denials_daily_sources_insert;
DROP TRIGGER denials_daily_sources_delete;
DROP TRIGGER denials_daily_sources_update;
ALTER TABLE denials ADD COLUMN canonical_tool TEXT;
ALTER TABLE denials ADD COLUMN tool_family TEXT;
UPDATE denials SET (canonical_tool, tool_family) =
  (SELECT i.canonical_tool, i.tool_family FROM toolgate_tool_identity_0005 i WHERE i.tool = denials.tool);
ALTER TABLE denial_daily ADD COLUMN canonical_tool TEXT;
UPDATE denial_daily SET canonical_tool =
  (SELECT i.canonical_tool FROM toolgate_tool_identity_0005 i WHERE i.tool = denial_daily.tool);
ALTER TABLE denial_daily_sessions ADD COLUMN canonical_tool TEXT;
UPDATE denial_daily_sessions SET canonical_tool =
  (SELECT i.canonical_tool FROM toolgate_tool_identity_0005 i WHERE i.tool = denial_daily_sessions.tool);
ALTER TABLE denial_daily_sources ADD COLUMN canonical_tool TEXT;
UPDATE denial_daily_sources SET canonical_tool =
  (SELECT i.canonical_tool FROM toolgate_tool_identity_0005 i WHERE i.tool = denial_daily_sources.tool);
DROP TABLE toolgate_tool_identity_0005;
DROP TABLE toolgate_tool_names_0005;
DROP INDEX denials_tool_at;
CREATE INDEX denials_canonical_tool_at ON denials (canonical_tool, at);
CREATE INDEX denial_daily_canonical_tool ON denial_daily (canonical_tool, day);
CREATE INDEX denial_daily_sessions_canonical_tool ON denial_daily_sessions (canonical_tool, day);
CREATE INDEX denial_daily_sources_canonical_tool ON denial_daily_sources (canonical_tool, day);
CREATE TRIGGER denials_daily_sources_insert AFTER INSERT ON denials BEGIN
  INSERT INTO denial_daily_sources (day, tool, source, total, canonical_tool)
    VALUES (NEW.day, NEW.tool, NEW.source, 1, NEW.canonical_tool)
    ON CONFLICT (day, tool, source) DO UPDATE SET total = total + 1;
END;
CREATE TRIGGER denials_daily_sources_delete AFTER DELETE ON denials BEGIN
  UPDATE denial_daily_sources SET total = total - 1
    WHERE day = OLD.day AND tool = OLD.tool AND source = OLD.source;
END;
CREATE TRIGGER denials_daily_sources_update AFTER UPDATE OF day, tool, source ON denials
  WHEN OLD.day IS NOT NEW.day OR OLD.tool IS NOT NEW.tool OR OLD.source IS NOT NEW.source BEGIN
  UPDATE denial_daily_sources SET total = total - 1
    WHERE day = OLD.day AND tool = OLD.tool AND source = OLD.source;
  INSERT INTO denial_daily_sources (day, tool, source, total, canonical_tool)
    VALUES (NEW.day, NEW.tool, NEW.source, 1, NEW.canonical_tool)
    ON CONFLICT (day, tool, source) DO UPDATE SET total = total + 1;
END;
`,
};
