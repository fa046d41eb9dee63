import type { Behavior } from "../../core/decision.js";
import type { ImportedRule, ImportResult } from "../../policy/import/imported-rules.js";

/** opencode permission keys and the Claude Code tool each maps to. */
const TOOL_FOR_KEY: Record<string, string> = {
  bash: "Bash",
  read: "Read",
  edit: "Edit",
  write: "Write",
  glob: "Glob",
  grep: "Grep",
  list: "LS",
  webfetch: "WebFetch",
  websearch: "WebSearch",
  task: "Task",
  todowrite: "TodoWrite",
  skill: "Skill",
};
const PATH_KEYS = new Set(["read", "edit", "write", "glob", "grep", "list"]);
const NOT_RULES: Record<string, string> = {
  doom_loop: "toolgate's loop detector replaces doom_loop; configure `escalation.loop` instead",
  external_directory:
    "external_directory has no rule form; list allowed directories in `permissions.additionalDirectories`",
  question: "the question tool has no permission rule in toolgate",
  lsp: "lsp has no rule form in toolgate",
};

function action(value: unknown): Behavior | undefined {
  return value === "allow" || value === "ask" || value === "deny" ? value : undefined;
}

/**
 * Imports an opencode `permission` value. opencode evaluates **last match wins** over the rules in the order they
 * are written; toolgate keeps that by giving each rule a rising priority (1, 2, 3, ...), so a later rule outranks
 * an earlier one whatever its behavior.
 */
export function importOpencodePermission(permission: unknown): ImportResult {
  const result: ImportResult = {
    rules: [],
    unsupported: [],
    notes: ["opencode evaluates the last matching rule; the imported rules keep that order through rising priorities."],
  };
  const push = (rule: string, behavior: Behavior) => {
    const entry: ImportedRule = { rule, behavior, priority: result.rules.length + 1 };
    result.rules.push(entry);
  };
  const everything = action(permission);
  if (everything !== undefined) {
    result.unsupported.push({
      entry: `permission: "${everything}"`,
      reason: "a single action for every tool; write it per tool (`Bash`, `Edit`, ...) or as a default mode",
    });
    return result;
  }
  if (typeof permission !== "object" || permission === null) {
    result.unsupported.push({ entry: "permission", reason: "expected an object or an action string" });
    return result;
  }
  for (const [key, value] of Object.entries(permission as Record<string, unknown>)) {
    if (NOT_RULES[key] !== undefined) {
      result.unsupported.push({ entry: key, reason: NOT_RULES[key] as string });
      continue;
    }
    const tool = TOOL_FOR_KEY[key] ?? key;
    if (/[*?]/.test(tool) && tool !== "*") {
      result.unsupported.push({ entry: key, reason: "tool-name wildcards other than `*` have no Claude Code form" });
      continue;
    }
    const patterns: [string, unknown][] =
      typeof value === "string" ? [["*", value]] : Object.entries((value ?? {}) as object);
    for (const [pattern, raw] of patterns) {
      const behavior = action(raw);
      if (behavior === undefined) {
        result.unsupported.push({ entry: `${key}.${pattern}`, reason: `unknown action ${JSON.stringify(raw)}` });
        continue;
      }
      if (tool === "*") {
        if (pattern !== "*") {
          result.unsupported.push({
            entry: `*.${pattern}`,
            reason: "a pattern for every tool has no Claude Code form",
          });
        } else if (behavior === "allow") {
          result.unsupported.push({
            entry: "*",
            reason: "an allow for every tool cannot be expressed; use bypassPermissions mode",
          });
        } else {
          push("*", behavior);
        }
        continue;
      }
      const rule = toRule(tool, key, pattern);
      if (rule === undefined) {
        result.unsupported.push({ entry: `${key}.${pattern}`, reason: "`?` wildcards have no Claude Code form" });
        continue;
      }
      push(rule, behavior);
    }
  }
  return result;
}

function toRule(tool: string, key: string, pattern: string): string | undefined {
  if (pattern === "*") return PATH_KEYS.has(key) && (key === "edit" || key === "write") ? `${tool}(**)` : tool;
  if (pattern.includes("?")) return undefined;
  let expanded = pattern.replace(/^\$HOME(?=\/|$)/, "~");
  if (PATH_KEYS.has(key)) {
    // opencode's `*` crosses directories; the closest path glob is `**`
    if (expanded.includes("/") && !expanded.startsWith("~") && !expanded.startsWith("/")) {
      expanded = `/${expanded.replace(/\*+/g, "**")}`;
    } else if (expanded.startsWith("/")) {
      expanded = `/${expanded.replace(/\*+/g, "**")}`;
    }
    return `${tool}(${expanded})`;
  }
  return `${tool}(${expanded})`;
}
