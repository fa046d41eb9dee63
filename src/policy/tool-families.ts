/**
 * The matcher table: which family a tool belongs to, how hosts name it, and where its rule-relevant input lives.
 * Rule matching never tests tool names directly; it asks this table.
 */

export type ToolFamily = "shell" | "read" | "edit" | "web" | "mcp" | "other";

/** Host tool names (opencode, Gemini CLI) mapped to Claude Code's canonical names. */
const ALIASES: Record<string, string> = {
  bash: "Bash",
  shell: "Bash",
  run_shell_command: "Bash",
  read: "Read",
  read_file: "Read",
  read_many_files: "Read",
  edit: "Edit",
  replace: "Edit",
  patch: "Edit",
  multiedit: "MultiEdit",
  write: "Write",
  write_file: "Write",
  glob: "Glob",
  grep: "Grep",
  search_file_content: "Grep",
  list: "LS",
  list_directory: "LS",
  webfetch: "WebFetch",
  web_fetch: "WebFetch",
  websearch: "WebSearch",
  google_web_search: "WebSearch",
};

const FAMILIES: Record<string, ToolFamily> = {
  Bash: "shell",
  Read: "read",
  Grep: "read",
  Glob: "read",
  LS: "read",
  NotebookRead: "read",
  Edit: "edit",
  Write: "edit",
  MultiEdit: "edit",
  NotebookEdit: "edit",
  WebFetch: "web",
};

/** Input fields that rules match through their own syntax; `Tool(field:value)` parameter rules ignore them. */
export const CANONICAL_FIELDS: Record<ToolFamily, readonly string[]> = {
  shell: ["command"],
  read: ["file_path", "filePath", "path", "notebook_path"],
  edit: ["file_path", "filePath", "path", "notebook_path"],
  web: ["url"],
  mcp: [],
  other: [],
};

/** Parameter names that turn `Tool(name:value)` into a parameter rule for the built-in families. */
export const PARAMETER_FIELDS: Record<ToolFamily, ReadonlySet<string> | "any"> = {
  shell: new Set(["run_in_background", "timeout", "description", "dangerouslyDisableSandbox"]),
  read: new Set(["offset", "limit", "pages", "pattern", "glob", "type", "output_mode", "head_limit", "multiline"]),
  edit: new Set(["old_string", "new_string", "replace_all", "content", "cell_id", "cell_type", "edit_mode"]),
  web: new Set(["prompt"]),
  mcp: "any",
  other: "any",
};

export function canonicalToolName(tool: string): string {
  return ALIASES[tool] ?? tool;
}

export function toolFamily(canonicalTool: string): ToolFamily {
  if (canonicalTool.startsWith("mcp__")) return "mcp";
  return FAMILIES[canonicalTool] ?? "other";
}

/** Which call tools a specifier rule written for `ruleTool` applies to: `Edit(...)` covers every editing tool. */
export function specifierCovers(ruleTool: string, callTool: string): boolean {
  if (ruleTool === callTool) return true;
  if (ruleTool === "Edit") return toolFamily(callTool) === "edit";
  if (ruleTool === "Read") return toolFamily(callTool) === "read";
  return false;
}

function field(input: unknown, name: string): unknown {
  return typeof input === "object" && input !== null ? (input as Record<string, unknown>)[name] : undefined;
}

export function commandOf(input: unknown): string | undefined {
  const value = field(input, "command");
  return typeof value === "string" ? value : undefined;
}

/** The file or directory a file tool acts on; search tools without a path act on the working directory. */
export function pathOf(input: unknown): string | undefined {
  for (const name of ["file_path", "filePath", "notebook_path", "path", "absolute_path", "dir_path"]) {
    const value = field(input, name);
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

export function urlOf(input: unknown): string | undefined {
  const value = field(input, "url");
  return typeof value === "string" ? value : undefined;
}

/** Top-level scalar input field as text, for parameter rules; objects and arrays never match. */
export function scalarField(input: unknown, name: string): string | undefined {
  const value = field(input, name);
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value === null) return "null";
  return undefined;
}
