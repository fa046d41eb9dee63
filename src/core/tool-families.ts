/**
 * The one tool table: every known tool name, whatever host sends it, with its family and its canonical name. The
 * core's default thresholds (`DEFAULT_THRESHOLDS` in compile-config.ts), detection (input summaries, the OS-denial
 * classifier) and the policy (which rules cover which tools) read the family; records, reports, the dashboard and
 * `analyze` group by the canonical name (docs/core.md, "Tool identity").
 *
 * - Families: `shell` runs commands; `read` reads files or lists directories; `search` searches file names or
 *   contents (Claude Code's Read rules cover it, and it escalates like reading); `edit` writes files; `web` fetches
 *   or searches the web; `mcp` is any MCP tool (`mcp__<server>__<tool>` or `mcp_<server>_<tool>`); everything
 *   else is `other`.
 * - Canonical names are lower case and host-neutral: every shell tool is `shell`; an MCP tool is
 *   `mcp_<server>_<tool>` (the double-underscore spelling folds into it); an unknown tool keeps its own name.
 * - Lookup is exact first, then case-insensitive, so `BASH` is `shell`. An own-property check keeps `toString`
 *   and `__proto__` `other`. Every lookup of a table name returns the table's own frozen entry (no allocation).
 *
 * To support a new tool name: add it here under its canonical name. Stored records are back-filled from this table
 * by migration 0005 (store/sqlite/migrations, store/postgres/migrations): a name added later needs a new back-fill
 * migration for the rows stored before it.
 */
export type ToolFamily = "shell" | "read" | "search" | "edit" | "web" | "mcp" | "other";

/** Every family, in a fixed order (config keys, TOOLGATE_DENY_THRESHOLD_<FAMILY> variables). */
export const TOOL_FAMILY_NAMES: readonly ToolFamily[] = ["shell", "read", "search", "edit", "web", "mcp", "other"];

/** A tool's host-neutral identity: its family and its canonical name. */
export interface ToolIdentity {
  readonly family: ToolFamily;
  readonly canonical: string;
}

/** canonical name -> family and the tool names that mean it */
const CANONICAL_TOOLS: readonly (readonly [canonical: string, family: ToolFamily, names: readonly string[]])[] = [
  [
    "shell",
    "shell",
    [
      "Bash",
      "bash",
      "Shell",
      "shell",
      "shell_command",
      "exec_command",
      "local_shell",
      "container_exec",
      "container.exec",
      "run_shell_command",
      "PowerShell",
      "powershell",
      "run_commands",
      // a background command (`monitor`, `Monitor`): the hosts' own rules read it as a shell tool
      "monitor",
      "Monitor",
      // the Agent Client Protocol's tool kind for running commands (an ACP agent that names no tool of its own)
      "execute",
    ],
  ],
  ["read", "read", ["Read", "read", "read_file", "FileRead", "View", "view", "send_file"]],
  ["read_many", "read", ["read_many_files", "read_files"]],
  ["list", "read", ["LS", "ls", "list", "list_directory"]],
  ["notebook_read", "read", ["NotebookRead"]],
  ["view_image", "read", ["view_image", "zoom_image"]],
  ["grep", "search", ["Grep", "grep", "grep_search", "search_file_content", "search_codebase"]],
  ["glob", "search", ["Glob", "glob", "find_files", "FileSearch", "find"]],
  ["code_search", "search", ["codesearch"]],
  ["edit", "edit", ["Edit", "edit", "replace", "edit_file", "FileEdit", "editor"]],
  ["multi_edit", "edit", ["MultiEdit", "multiedit"]],
  ["write", "edit", ["Write", "write", "write_file", "create_file", "FileWrite", "create"]],
  ["apply_patch", "edit", ["apply_patch", "patch"]],
  ["notebook_edit", "edit", ["NotebookEdit", "notebook_edit"]],
  ["web_fetch", "web", ["WebFetch", "webfetch", "web_fetch", "fetch", "fetch_web_content"]],
  ["web_search", "web", ["WebSearch", "websearch", "web_search", "google_web_search"]],
];

function buildIdentities(): Record<string, ToolIdentity> {
  const identities: Record<string, ToolIdentity> = Object.create(null);
  for (const [canonical, family, names] of CANONICAL_TOOLS) {
    const identity: ToolIdentity = Object.freeze({ family, canonical });
    for (const name of names) identities[name] = identity;
  }
  return identities;
}

/** Every known tool name -> its identity (an object without a prototype: `toString` is not a tool). */
export const TOOL_IDENTITIES: Readonly<Record<string, ToolIdentity>> = Object.freeze(buildIdentities());

/** Every known tool name -> its family (the identity table's families, as a plain record). */
export const TOOL_FAMILIES: Readonly<Record<string, ToolFamily>> = Object.freeze(
  Object.fromEntries(Object.entries(TOOL_IDENTITIES).map(([name, identity]) => [name, identity.family])),
);

const lowerCaseIdentities = new Map<string, ToolIdentity>(
  Object.entries(TOOL_IDENTITIES).map(([name, identity]) => [name.toLowerCase(), identity]),
);

/** MCP and unknown names seen so far, so a repeated name costs one map lookup; bounded, cleared when full */
const DYNAMIC_LIMIT = 1024;
const dynamicIdentities = new Map<string, ToolIdentity>();

/** Whether a name is an MCP tool's: `mcp__<server>__<tool>` or `mcp_<server>_<tool>`. */
function isMcpName(tool: string): boolean {
  return tool.startsWith("mcp__") || (tool.startsWith("mcp_") && tool.length > 4 && tool[4] !== "_");
}

/**
 * The canonical spelling of an MCP tool name: `mcp_<server>_<tool>`. the double-underscore `mcp__<server>__<tool>` folds
 * into it (its first `__` after the prefix separates server and tool), the single-underscore `mcp_<server>_<tool>` is it
 * already. The back-fill in migration 0005 computes the same in SQL.
 */
export function canonicalMcpName(tool: string): string {
  if (!tool.startsWith("mcp__")) return tool;
  const rest = tool.slice(5);
  const separator = rest.indexOf("__");
  return separator < 0 ? `mcp_${rest}` : `mcp_${rest.slice(0, separator)}_${rest.slice(separator + 2)}`;
}

function dynamicIdentity(tool: string): ToolIdentity {
  const known = dynamicIdentities.get(tool);
  if (known !== undefined) return known;
  const identity: ToolIdentity = isMcpName(tool)
    ? Object.freeze({ family: "mcp", canonical: canonicalMcpName(tool) })
    : (lowerCaseIdentities.get(tool.toLowerCase()) ?? Object.freeze({ family: "other", canonical: tool }));
  if (dynamicIdentities.size >= DYNAMIC_LIMIT) dynamicIdentities.clear();
  dynamicIdentities.set(tool, identity);
  return identity;
}

/** A tool name's family and canonical name; an unknown tool is family `other` under its own name. */
export function toolIdentity(tool: string): ToolIdentity {
  return TOOL_IDENTITIES[tool] ?? dynamicIdentity(tool);
}

/** The family of a tool name; `other` when it is not known. */
export function toolFamily(tool: string): ToolFamily {
  return toolIdentity(tool).family;
}

/** The canonical, host-neutral name of a tool: `shell` for every shell tool; an unknown tool's own name. */
export function canonicalTool(tool: string): string {
  return toolIdentity(tool).canonical;
}
