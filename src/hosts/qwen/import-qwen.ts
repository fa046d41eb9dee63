import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import { parseRule } from "../../policy/parse-rule.js";
import { readQwenSettings } from "./install-qwen.js";

/**
 * `toolgate import qwen`: Qwen Code's `permissions` (`allow`/`ask`/`deny`, Claude-style rules such as `Bash(rm *)`,
 * with Qwen's own tool names allowed too) and its legacy `tools.exclude` list, from the project's
 * `.qwen/settings.json` and `~/.qwen/settings.json` (or one file), as toolgate rules in Claude Code's names.
 */
export interface QwenImport {
  permissions: { allow?: string[]; ask?: string[]; deny?: string[] };
  files: string[];
  unsupported: { entry: string; reason: string }[];
  notes: string[];
}

/** Qwen Code tool names (and its aliases) to the Claude Code names toolgate's rules use. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  run_shell_command: "Bash",
  Shell: "Bash",
  ShellTool: "Bash",
  read_file: "Read",
  ReadFile: "Read",
  read_many_files: "Read",
  list_directory: "LS",
  edit: "Edit",
  replace: "Edit",
  Edit: "Edit",
  write_file: "Write",
  WriteFile: "Write",
  grep_search: "Grep",
  glob: "Glob",
  web_fetch: "WebFetch",
  web_search: "WebSearch",
};

const BEHAVIORS = ["deny", "ask", "allow"] as const;

/** One Qwen rule in toolgate's (Claude Code's) names, or why it cannot be expressed. */
export function convertQwenRule(rule: string): { rule: string } | { reason: string } {
  const text = rule.trim();
  const open = text.indexOf("(");
  const tool = open < 0 ? text : text.slice(0, open);
  const renamed = `${TOOL_NAMES[tool] ?? tool}${open < 0 ? "" : text.slice(open)}`;
  try {
    parseRule(renamed);
    return { rule: renamed };
  } catch (error) {
    return { reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Converts one settings object's permissions into the lists of `into`. */
function convertQwenPermissions(settings: Record<string, unknown>, into: QwenImport, file: string): void {
  const permissions = (settings["permissions"] ?? {}) as Record<string, unknown>;
  const lists: [(typeof BEHAVIORS)[number], unknown][] = BEHAVIORS.map((behavior) => [behavior, permissions[behavior]]);
  const exclude = (settings["tools"] as { exclude?: unknown } | undefined)?.exclude;
  if (Array.isArray(exclude)) {
    lists.push(["deny", exclude]);
    if (exclude.length > 0) into.notes.push(`${file}: tools.exclude is imported as deny rules.`);
  }
  for (const [behavior, list] of lists) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      into.unsupported.push({ entry: `${file}: permissions.${behavior}`, reason: "not a list of rules" });
      continue;
    }
    for (const entry of list) {
      if (typeof entry !== "string") {
        into.unsupported.push({ entry: `${file}: ${JSON.stringify(entry)}`, reason: "a rule must be a string" });
        continue;
      }
      const converted = convertQwenRule(entry);
      if ("reason" in converted) {
        into.unsupported.push({ entry: `${file}: ${entry}`, reason: converted.reason });
        continue;
      }
      const target = into.permissions[behavior] ?? [];
      into.permissions[behavior] = target;
      if (!target.includes(converted.rule)) target.push(converted.rule);
    }
  }
  if (Array.isArray(permissions["ask"]) && permissions["ask"].length > 0) {
    into.notes.push(
      `${file}: Qwen Code's yolo mode (--yolo, --approval-mode yolo) runs calls its ask rules cover without asking, and toolgate's ask rules leave the call to Qwen too: where a call must not run under yolo, make it a deny rule.`,
    );
  }
}

export function importQwen(options: { cwd: string; homeDir: string; path?: string }): QwenImport {
  const candidates =
    options.path !== undefined
      ? [resolve(options.cwd, options.path)]
      : [join(options.cwd, ".qwen", "settings.json"), join(options.homeDir, ".qwen", "settings.json")];
  const files = candidates.filter((file) => existsSync(file));
  if (files.length === 0) {
    throw new ToolgateError({
      code: "CONFIG_NOT_FOUND",
      message: `No Qwen Code settings found (looked at ${candidates.join(", ")}). Pass the file's path: toolgate import qwen <path>.`,
    });
  }
  const result: QwenImport = { permissions: {}, files, unsupported: [], notes: [] };
  for (const file of files) convertQwenPermissions(readQwenSettings(file).settings, result, file);
  return result;
}
