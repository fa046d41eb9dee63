import type { Behavior } from "../../core/decision.js";
import type { ImportResult } from "../../policy/import/imported-rules.js";
import type { PermissionMode } from "../../policy/policy-types.js";

/** Gemini CLI tool names and their Claude Code equivalents. */
const TOOL_FOR_NAME: Record<string, string> = {
  run_shell_command: "Bash",
  read_file: "Read",
  read_many_files: "Read",
  write_file: "Write",
  replace: "Edit",
  glob: "Glob",
  search_file_content: "Grep",
  grep_search: "Grep",
  list_directory: "LS",
  web_fetch: "WebFetch",
  google_web_search: "WebSearch",
  save_memory: "save_memory",
  "*": "*",
};
const MODE_FOR_NAME: Record<string, PermissionMode> = {
  default: "default",
  autoEdit: "acceptEdits",
  yolo: "bypassPermissions",
  plan: "plan",
};
const DECISION: Record<string, Behavior> = { allow: "allow", deny: "deny", ask_user: "ask" };

/** Gemini policy tiers: effective priority = tier + priority / 1000. */
export const GEMINI_TIERS = { default: 1, extension: 2, workspace: 3, user: 4, admin: 5 } as const;

/**
 * Imports a parsed Gemini CLI policy file (`[[rule]]` tables). Gemini picks the highest effective priority
 * (tier + priority/1000) and, among equal ones, the rule loaded first; toolgate uses that number minus
 * position/10^7 as the rule's priority, so the order is preserved within and across files. `commandPrefix` becomes `Bash(prefix *)`; `commandRegex`, `argsPattern`,
 * `toolAnnotations` and `subagent` conditions have no Claude Code form and are reported.
 */
export function importGeminiPolicy(
  parsed: unknown,
  options: {
    tier: keyof typeof GEMINI_TIERS;
    file: string;
    /** position of this file's first rule among all imported Gemini rules (ties keep load order) */
    firstIndex?: number;
  },
): ImportResult {
  const result: ImportResult = { rules: [], unsupported: [], notes: [] };
  const tables = (parsed as { rule?: unknown })?.rule;
  if (!Array.isArray(tables)) {
    result.notes.push(`${options.file}: no [[rule]] tables`);
    return result;
  }
  tables.forEach((table: Record<string, unknown>, index) => {
    const label = `${options.file} rule #${index + 1}${typeof table.name === "string" ? ` (${table.name})` : ""}`;
    const behavior = DECISION[String(table.decision)];
    if (behavior === undefined) {
      result.unsupported.push({ entry: label, reason: `unknown decision ${JSON.stringify(table.decision)}` });
      return;
    }
    for (const key of ["commandRegex", "argsPattern", "toolAnnotations", "subagent"]) {
      if (table[key] !== undefined) {
        result.unsupported.push({
          entry: label,
          reason: `\`${key}\` has no Claude Code rule form; the rule is skipped`,
        });
        return;
      }
    }
    // Gemini sorts by priority and keeps load order among equal ones: a tiny decreasing offset keeps that order
    const order = (options.firstIndex ?? 0) + index;
    const priority =
      GEMINI_TIERS[options.tier] + Math.min(Math.max(Number(table.priority ?? 0), 0), 999) / 1000 - order / 1e7;
    const modes = Array.isArray(table.modes)
      ? table.modes
          .map((mode) => MODE_FOR_NAME[String(mode)])
          .filter((mode): mode is PermissionMode => mode !== undefined)
      : undefined;
    const extra = {
      priority: Math.round(priority * 1e7) / 1e7,
      ...(typeof table.interactive === "boolean" ? { interactive: table.interactive } : {}),
      ...(modes === undefined ? {} : { modes }),
    };
    const toolNames = table.toolName === undefined ? ["*"] : ([] as unknown[]).concat(table.toolName).map(String);
    const prefixes =
      table.commandPrefix === undefined ? undefined : ([] as unknown[]).concat(table.commandPrefix).map(String);
    for (const name of toolNames) {
      let tool = TOOL_FOR_NAME[name] ?? name;
      if (typeof table.mcpName === "string")
        tool = name === "*" ? `mcp__${table.mcpName}` : `mcp__${table.mcpName}__${name}`;
      if (prefixes !== undefined) {
        if (tool !== "Bash") {
          result.unsupported.push({ entry: label, reason: "commandPrefix applies to run_shell_command only" });
          continue;
        }
        for (const prefix of prefixes) result.rules.push({ rule: `Bash(${prefix} *)`, behavior, ...extra });
        continue;
      }
      if (tool === "*" && behavior === "allow") {
        result.unsupported.push({
          entry: label,
          reason: "an allow for every tool cannot be expressed; use bypassPermissions mode",
        });
        continue;
      }
      if (tool !== "*" && /[*?]/.test(tool) && !tool.startsWith("mcp__")) {
        result.unsupported.push({ entry: label, reason: `tool-name pattern ${tool} has no Claude Code form` });
        continue;
      }
      result.rules.push({ rule: tool, behavior, ...extra });
    }
  });
  return result;
}
