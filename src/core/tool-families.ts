/**
 * The one tool-family table: which family every host's tool names belong to. The core's default thresholds
 * (`DEFAULT_THRESHOLDS` in compile-config.ts), detection (input summaries, the OS-denial classifier) and the policy (which rules cover
 * which tools) all read it.
 *
 * - `shell` runs commands; `read` reads files or lists directories; `search` searches file names or contents
 *   (Claude Code's Read rules cover it, and it escalates like reading); `edit` writes files; `web` fetches or
 *   searches the web; `mcp` is any MCP tool (`mcp__<server>__<tool>` in Claude Code, `mcp_<server>_<tool>` in
 *   Gemini CLI); everything else is `other`.
 * - Lookup is exact first, then case-insensitive, so `BASH` is `shell`. An own-property check keeps `toString`
 *   and `__proto__` `other`.
 *
 * To support a new host: add its tool names here, with the family, under the host's heading.
 */
export type ToolFamily = "shell" | "read" | "search" | "edit" | "web" | "mcp" | "other";

/** Every family, in a fixed order (config keys, TOOLGATE_DENY_THRESHOLD_<FAMILY> variables). */
export const TOOL_FAMILY_NAMES: readonly ToolFamily[] = ["shell", "read", "search", "edit", "web", "mcp", "other"];

export const TOOL_FAMILIES: Readonly<Record<string, ToolFamily>> = {
  // Claude Code
  Bash: "shell",
  PowerShell: "shell",
  Read: "read",
  LS: "read",
  NotebookRead: "read",
  Grep: "search",
  Glob: "search",
  Edit: "edit",
  MultiEdit: "edit",
  Write: "edit",
  NotebookEdit: "edit",
  WebFetch: "web",
  WebSearch: "web",
  // opencode
  bash: "shell",
  read: "read",
  list: "read",
  grep: "search",
  glob: "search",
  codesearch: "search",
  edit: "edit",
  multiedit: "edit",
  write: "edit",
  patch: "edit",
  webfetch: "web",
  websearch: "web",
  // Codex CLI
  shell: "shell",
  shell_command: "shell",
  exec_command: "shell",
  local_shell: "shell",
  container_exec: "shell",
  "container.exec": "shell",
  view_image: "read",
  apply_patch: "edit",
  web_search: "web",
  // Gemini CLI and Qwen Code
  run_shell_command: "shell",
  read_file: "read",
  read_many_files: "read",
  list_directory: "read",
  grep_search: "search",
  search_file_content: "search",
  write_file: "edit",
  replace: "edit",
  edit_file: "edit",
  web_fetch: "web",
  google_web_search: "web",
  // other agents (Crush, agent-code, Amp and similar)
  Shell: "shell",
  powershell: "shell",
  View: "read",
  view: "read",
  ls: "read",
  FileRead: "read",
  find_files: "search",
  FileSearch: "search",
  create_file: "edit",
  FileWrite: "edit",
  FileEdit: "edit",
  fetch: "web",
};

const lowerCaseFamilies = new Map<string, ToolFamily>(
  Object.entries(TOOL_FAMILIES).map(([name, family]) => [name.toLowerCase(), family]),
);

/** The family of a tool name; `other` when it is not known. */
export function toolFamily(tool: string): ToolFamily {
  if (Object.hasOwn(TOOL_FAMILIES, tool)) return TOOL_FAMILIES[tool] as ToolFamily;
  if (tool.startsWith("mcp__") || /^mcp_[^_]/.test(tool)) return "mcp";
  return lowerCaseFamilies.get(tool.toLowerCase()) ?? "other";
}
