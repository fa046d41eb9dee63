/**
 * The name toolgate (and Claude Code) gives an MCP tool: `mcp__<server>__<tool>`, each part with every character
 * outside `[A-Za-z0-9_-]` replaced by `_`, so rules written for Claude Code (`mcp__github__create_issue`,
 * `mcp__github__*`, `mcp__github`) match the same calls through the proxy.
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${normalizeMcpName(tool)}`;
}

/** One part of an MCP tool name as Claude Code normalises it. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}
