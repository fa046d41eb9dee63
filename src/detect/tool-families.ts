/**
 * Which family a tool belongs to, across hosts (Claude Code, opencode, Gemini CLI, Qwen Code, Codex, agent-code).
 * Input summaries and the OS-denial classifier use this table; the policy layer keeps its own canonical-name
 * table (src/policy/tool-families.ts) because rule semantics follow Claude Code's tool names exactly, and the core's
 * default thresholds name the same shell-like and read-like tools as globs. Lookup is exact first, then case-insensitive;
 * `mcp__<server>__<tool>` (Claude) and `mcp_<server>_<tool>` (Gemini) names are `mcp`.
 *
 * To extend: add the host's tool name to `TOOL_FAMILIES` with its family.
 */
export type ToolFamily = "shell" | "read" | "edit" | "web" | "search" | "mcp" | "other";

export const TOOL_FAMILIES: Readonly<Record<string, ToolFamily>> = {
  // shell
  Bash: "shell",
  bash: "shell",
  shell: "shell",
  Shell: "shell",
  run_shell_command: "shell",
  exec_command: "shell",
  shell_command: "shell",
  local_shell: "shell",
  PowerShell: "shell",
  powershell: "shell",
  container_exec: "shell",
  "container.exec": "shell",
  // read
  Read: "read",
  read: "read",
  read_file: "read",
  read_many_files: "read",
  FileRead: "read",
  View: "read",
  view: "read",
  NotebookRead: "read",
  LS: "read",
  ls: "read",
  list: "read",
  list_directory: "read",
  // edit
  Write: "edit",
  write: "edit",
  Edit: "edit",
  edit: "edit",
  MultiEdit: "edit",
  multiedit: "edit",
  NotebookEdit: "edit",
  write_file: "edit",
  replace: "edit",
  edit_file: "edit",
  create_file: "edit",
  FileWrite: "edit",
  FileEdit: "edit",
  patch: "edit",
  apply_patch: "edit",
  // web
  WebFetch: "web",
  webfetch: "web",
  web_fetch: "web",
  WebSearch: "web",
  websearch: "web",
  web_search: "web",
  google_web_search: "web",
  fetch: "web",
  // search
  Grep: "search",
  grep: "search",
  Glob: "search",
  glob: "search",
  search_file_content: "search",
  codesearch: "search",
  find_files: "search",
  FileSearch: "search",
};

const lowerCaseFamilies = new Map<string, ToolFamily>(
  Object.entries(TOOL_FAMILIES).map(([name, family]) => [name.toLowerCase(), family]),
);

/** The family of a tool name; `other` when it is not known. */
export function toolFamily(tool: string): ToolFamily {
  const exact = TOOL_FAMILIES[tool];
  if (exact !== undefined && Object.hasOwn(TOOL_FAMILIES, tool)) return exact;
  if (tool.startsWith("mcp__") || /^mcp_[^_]/.test(tool)) return "mcp";
  return lowerCaseFamilies.get(tool.toLowerCase()) ?? "other";
}
