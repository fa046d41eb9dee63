/** The hosts whose MCP server entries `toolgate install mcp-proxy --host <host>` rewrites. */
export const MCP_PROXY_HOSTS = ["claude-code", "codex", "gemini", "opencode"] as const;
export type McpProxyHost = (typeof MCP_PROXY_HOSTS)[number];
