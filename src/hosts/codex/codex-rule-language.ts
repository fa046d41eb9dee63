import type { RuleLanguage } from "../../policy/grants/allow-rule-suggestion.js";
import { analyzeShellCommand } from "../../policy/shell/analyze-shell-command.js";
import { canonicalToolName, commandOf, toolFamily } from "../../policy/tool-families.js";

/**
 * Codex reads allow rules from its execpolicy `.rules` files: `prefix_rule(pattern=[...], decision="allow")`, one per
 * command a shell call runs (Codex checks every command of a `bash -lc` script). It has no rule for its other tools
 * (`apply_patch`, `web_search`, ...), and none for a command toolgate cannot split into plain words.
 */
export const codexRuleLanguage: RuleLanguage = {
  name: "Codex execpolicy .rules",
  allowRule(tool, input) {
    if (toolFamily(canonicalToolName(tool)) !== "shell") return undefined;
    const analysis = analyzeShellCommand((scriptOf(input) ?? commandOf(input) ?? "").trim());
    if (!analysis.complete || analysis.subcommands.length === 0) return undefined;
    const rules = new Set<string>();
    for (const subcommand of analysis.subcommands) {
      if (subcommand.words.length === 0) return undefined;
      rules.add(
        `prefix_rule(pattern=[${subcommand.words.map((word) => JSON.stringify(word)).join(", ")}], decision="allow")`,
      );
    }
    return [...rules].join("\n");
  },
};

/** the script of a `["bash", "-lc", script]` argv: Codex checks the script's commands, not the wrapper */
function scriptOf(input: unknown): string | undefined {
  const command = (input as { command?: unknown } | null)?.command;
  if (!Array.isArray(command) || command.length !== 3) return undefined;
  const [shell, flag, script] = command as unknown[];
  if (typeof shell !== "string" || typeof script !== "string") return undefined;
  const name = shell.split("/").at(-1) ?? "";
  return ["bash", "sh", "zsh"].includes(name) && (flag === "-lc" || flag === "-c") ? script : undefined;
}
