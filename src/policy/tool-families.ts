import { toolFamily as familyOf, type ToolFamily } from "../core/tool-families.js";
import { hasUnreadableCharacter, readShellCommand } from "./shell/read-shell-command.js";

/**
 * How rules see tools: Claude Code's canonical names, and each tool's family from the one table
 * (core/tool-families.ts). Rule matching never tests tool names directly; it asks this module.
 */

/**
 * The family a rule sees. Claude Code's Read rules cover the searching tools (Grep, Glob), so `search` counts as
 * `read` here; every other family is the table's.
 */
export type RuleFamily = Exclude<ToolFamily, "search">;

/** Other hosts' tool names mapped to Claude Code's canonical names (the names rules are written with). */
const ALIASES: Record<string, string> = {
  bash: "Bash",
  shell: "Bash",
  run_shell_command: "Bash",
  run_commands: "Bash",
  monitor: "Bash",
  Monitor: "Bash",
  // the shell tool some hosts offer on Windows: a Bash rule covers every host's shell tool
  powershell: "Bash",
  // the Agent Client Protocol's tool kinds (an ACP agent that names no tool of its own)
  execute: "Bash",
  read: "Read",
  read_file: "Read",
  view: "Read",
  zoom_image: "Read",
  send_file: "Read",
  view_image: "Read",
  read_many_files: "Read",
  read_files: "Read",
  edit: "Edit",
  replace: "Edit",
  editor: "Edit",
  patch: "Edit",
  apply_patch: "Edit",
  multiedit: "MultiEdit",
  write: "Write",
  write_file: "Write",
  create: "Write",
  notebook_edit: "NotebookEdit",
  glob: "Glob",
  grep: "Grep",
  grep_search: "Grep",
  search_file_content: "Grep",
  list: "LS",
  list_directory: "LS",
  webfetch: "WebFetch",
  web_fetch: "WebFetch",
  fetch_web_content: "WebFetch",
  websearch: "WebSearch",
  task: "Task",
  google_web_search: "WebSearch",
};

/** Input fields that rules match through their own syntax; `Tool(field:value)` parameter rules ignore them. */
export const CANONICAL_FIELDS: Record<RuleFamily, readonly string[]> = {
  shell: ["command"],
  read: ["file_path", "filePath", "path", "notebook_path"],
  edit: ["file_path", "filePath", "path", "notebook_path"],
  web: ["url"],
  mcp: [],
  other: [],
};

/** Parameter names that turn `Tool(name:value)` into a parameter rule for the built-in families. */
export const PARAMETER_FIELDS: Record<RuleFamily, ReadonlySet<string> | "any"> = {
  shell: new Set(["run_in_background", "timeout", "description", "dangerouslyDisableSandbox"]),
  read: new Set(["offset", "limit", "pages", "pattern", "glob", "type", "output_mode", "head_limit", "multiline"]),
  edit: new Set(["old_string", "new_string", "replace_all", "content", "cell_id", "cell_type", "edit_mode"]),
  web: new Set(["prompt"]),
  mcp: "any",
  other: "any",
};

export function canonicalToolName(tool: string): string {
  return Object.hasOwn(ALIASES, tool) ? (ALIASES[tool] as string) : tool;
}

/** The family of a (canonical) tool name as rules see it: the table's, with `search` folded into `read`. */
export function toolFamily(canonicalTool: string): RuleFamily {
  const family = familyOf(canonicalTool);
  return family === "search" ? "read" : family;
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

/**
 * The command line of a shell call: `command`, else `cmd` (an `exec_command` tool's field),
 * a string or an argv array joined with shell quoting; undefined when it cannot be read (`readShellCommand` says
 * why, and the policy refuses such a call).
 */
export function commandOf(input: unknown): string | undefined {
  // the shape nearly every call has, a `command` string and no `cmd`, read without building a reading object
  if (typeof input === "object" && input !== null) {
    const { command, cmd } = input as { command?: unknown; cmd?: unknown };
    if (typeof command === "string" && cmd === undefined && !Array.isArray(input)) {
      return hasUnreadableCharacter(command) ? undefined : command;
    }
  }
  const reading = readShellCommand(input);
  return "command" in reading ? reading.command : undefined;
}

/** The input fields that name a file tool's file or directory, read in this order. */
interface PathFields {
  file_path?: unknown;
  filePath?: unknown;
  notebook_path?: unknown;
  path?: unknown;
  absolute_path?: unknown;
  dir_path?: unknown;
}

/**
 * The file or directory a file tool acts on (the first of `file_path`, `filePath`, `notebook_path`, `path`,
 * `absolute_path`, `dir_path` that is a non-empty string); search tools without a path act on the working directory.
 * Each field is read by its own name (a named property load each, not a lookup by a variable name, which is
 * megamorphic on the hot path).
 */
export function pathOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const fields = input as PathFields;
  return (
    nonEmptyString(fields.file_path) ??
    nonEmptyString(fields.filePath) ??
    nonEmptyString(fields.notebook_path) ??
    nonEmptyString(fields.path) ??
    nonEmptyString(fields.absolute_path) ??
    nonEmptyString(fields.dir_path)
  );
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

export function urlOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as { url?: unknown }).url;
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
