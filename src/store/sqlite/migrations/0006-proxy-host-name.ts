import type { Migration } from "../../migration.js";

/**
 * 0006 proxy host name (SQLite). Why: the MCP proxy recorded its denials under host `mcp` while every command
 * (`toolgate install`, the registry, the dashboard's host filter) names it `mcp-proxy`, so one host showed under two
 * names. The proxy now records `mcp-proxy`; this renames the rows stored before. Nullability unchanged (`host` stays
 * nullable). No index or rollup carries the host, so none is rebuilt. Same meaning as
 * postgres/migrations/0006-proxy-host-name.ts.
 */
export const migration0006: Migration = {
  id: 6,
  name: "proxy-host-name",
  checksum: "84e8c5fa89f3ed6f",
  sql: `
UPDATE denials SET host = 'mcp-proxy' WHERE host = 'mcp';
`,
};
