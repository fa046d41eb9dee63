import { hostOf } from "./match/domain-specifier.js";
import { normalizePath, parentDirectory } from "./paths.js";
import { analyzeShellCommand, type ShellAnalysis } from "./shell/analyze-shell-command.js";
import { commandPrefix } from "./shell/command-arity.js";
import { canonicalToolName, commandOf, pathOf, toolFamily, urlOf } from "./tool-families.js";

/** Tools whose `path` input names a directory to search rather than a file. */
const DIRECTORY_TOOLS = new Set(["Grep", "Glob", "LS"]);

/**
 * The escalation family of a call (the core's `pattern`): repeated denials of one family escalate together.
 * - shell: the leading program and subcommand per the arity table, after wrappers and `VAR=1` prefixes
 *   (`rm`, `git push`, `npm run test`); in a compound command, the first subcommand that is not `cd`;
 * - file tools: the parent directory of the path (the directory itself for Grep/Glob/LS);
 * - WebFetch: the domain;
 * - MCP and other tools: the tool name.
 */
export function commandPattern(
  tool: string,
  input: unknown,
  /** `shell`: the command's analysis when the caller already has it */
  options: { shell?: ShellAnalysis | undefined } = {},
): string {
  const canonical = canonicalToolName(tool);
  const family = toolFamily(canonical);
  if (family === "shell") {
    const command = commandOf(input);
    // a command toolgate cannot read (refused by the policy) escalates as the tool
    if (command === undefined) return canonical;
    const { subcommands } = options.shell ?? analyzeShellCommand(command);
    const main = subcommands.find((sub) => sub.words[0] !== "cd") ?? subcommands[0];
    if (main === undefined || main.words.length === 0) return command.trim().split(/\s+/)[0] ?? "";
    return commandPrefix(main.words).join(" ");
  }
  if (family === "read" || family === "edit") {
    const path = pathOf(input);
    if (path === undefined) return canonical;
    const absolute = path.startsWith("/");
    const normalized = absolute ? normalizePath(path) : normalizePath(`/${path}`).slice(1) || ".";
    if (DIRECTORY_TOOLS.has(canonical)) return normalized;
    if (absolute) return parentDirectory(normalized);
    const index = normalized.lastIndexOf("/");
    return index < 0 ? "." : normalized.slice(0, index);
  }
  if (family === "web") {
    const url = urlOf(input);
    return (url === undefined ? undefined : hostOf(url)) ?? canonical;
  }
  return tool;
}
