import { isLookAlike, readableToolName } from "../../core/tool-name.js";

/**
 * The name toolgate (and Claude Code) gives an MCP tool: `mcp__<server>__<tool>`, each part with every character
 * outside `[A-Za-z0-9_-]` replaced by `_`, so rules written for Claude Code (`mcp__github__create_issue`,
 * `mcp__github__*`, `mcp__github`) match the same calls through the proxy. The tool's name comes from the client, so
 * what the policy must refuse survives the renaming (docs/mcp.md, "Tool names"): a character toolgate cannot read
 * (a NUL, a zero-width space, whitespace at either end) becomes U+FFFD, and a character that only looks like an ASCII
 * letter (Cyrillic `е`, fullwidth `ｅ`) stays as it is; the policy refuses both, where `_` would have made another
 * tool's name of them.
 */
export function mcpToolName(server: string, tool: string): string {
  return `mcp__${normalizeMcpName(server)}__${guardedMcpName(tool)}`;
}

/** One part of an MCP tool name as Claude Code normalises it. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/** A tool name from the client, normalised as Claude Code does but for what the policy must see to refuse it. */
function guardedMcpName(name: string): string {
  let guarded = "";
  for (const character of readableToolName(name)) {
    guarded += /^[A-Za-z0-9_-]$/.test(character) || character === "\uFFFD" || isLookAlike(character) ? character : "_";
  }
  return guarded;
}
