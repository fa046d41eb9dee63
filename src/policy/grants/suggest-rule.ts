import { hostOf } from "../match/domain-specifier.js";
import { normalizePath } from "../paths.js";
import { analyzeShellCommand, type ShellAnalysis } from "../shell/analyze-shell-command.js";
import { canonicalToolName, commandOf, pathOf, toolFamily, urlOf } from "../tool-families.js";
import { pathSpecifier } from "./path-rule-text.js";

/**
 * The narrowest allow rule that would let this call through, in Claude Code syntax, for abort errors and reports:
 * `Bash(npm run build)`, `Read(//repo/.env)`, `WebFetch(domain:example.com)`, `mcp__github__create_issue`.
 * A compound shell command needs one rule per subcommand (rules must cover every subcommand); those are joined
 * with ", ".
 */
export function suggestRule(
  tool: string,
  input: unknown,
  /** `shell`: the command's analysis when the caller already has it */
  options: { shell?: ShellAnalysis | undefined } = {},
): string {
  const canonical = canonicalToolName(tool);
  const family = toolFamily(canonical);
  if (family === "shell") {
    const command = (commandOf(input) ?? "").trim().replace(/\s+/g, " ");
    const analysis = options.shell ?? analyzeShellCommand(command);
    if (!analysis.complete || analysis.subcommands.length === 0) return `${canonical}(${command})`;
    const rules = new Set(analysis.subcommands.map((sub) => `${canonical}(${sub.text})`));
    return [...rules].join(", ");
  }
  if (family === "read" || family === "edit") {
    const path = pathOf(input);
    if (path === undefined) return canonical;
    const normalized = path.startsWith("/") ? normalizePath(path) : normalizePath(`/${path}`).slice(1);
    return `${canonical}(${pathSpecifier(normalized)})`;
  }
  if (family === "web") {
    const host = hostOf(urlOf(input) ?? "");
    return host === undefined ? canonical : `${canonical}(domain:${host})`;
  }
  return canonical;
}
