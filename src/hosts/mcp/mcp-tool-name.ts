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

/** One part of an MCP tool name as Claude Code normalises it: every character outside `[A-Za-z0-9_-]` becomes `_`. */
export function normalizeMcpName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, "_");
}

/**
 * The proxy's warning at start for a server whose name, as Claude Code renames it, holds `__` or ends in `_`
 * (`github (work)` is `github__work_`): a rule reads the first `__` after `mcp__` as the end of the server's name, so
 * the server-wide rule `mcp__github__work_` reads as the tool `work_` of a server `github`, and this server's tools
 * escape it. Its names stay Claude Code's (rules copied from Claude Code's settings keep matching); a rule per tool or
 * with a wildcard (`mcp__github__work___*`) covers them. Undefined for any other name.
 */
export function serverNameWarning(server: string): string | undefined {
  const normalized = normalizeMcpName(server);
  if (!normalized.includes("__") && !normalized.endsWith("_")) return undefined;
  return `toolgate mcp-proxy: warning: the server ${JSON.stringify(server)} is ${JSON.stringify(normalized)} in tool names (mcp__${normalized}__<tool>), where a rule reads the first "__" as the end of a server's name: a rule for the whole server (mcp__${normalized}) does not cover its tools. Write rules per tool or with a wildcard (mcp__${normalized}__*), or give the server a name of letters, digits and "-" (--server).`;
}

/** A tool name from the client, normalised as Claude Code does but for what the policy must see to refuse it. */
function guardedMcpName(name: string): string {
  let guarded = "";
  for (const character of readableToolName(name)) {
    guarded += /^[A-Za-z0-9_-]$/.test(character) || character === "\uFFFD" || isLookAlike(character) ? character : "_";
  }
  return guarded;
}
