import { canonicalToolName, commandOf, toolFamily } from "../tool-families.js";
import { suggestRule } from "./suggest-rule.js";

/** sources an allow rule cannot change: the OS or a sandbox, input validation, toolgate's own refusals */
export const NO_RULE_SOURCES: readonly string[] = ["loop", "sandbox", "validation", "aborted", "internal"];

/** `cat > f <<'EOF'`, `<<-EOF`: a heredoc (not a `<<<` here-string) */
const HEREDOC = /(^|[^<])<<-?\s*(['"]?)[A-Za-z_][A-Za-z0-9_]*\2/;

/** How an allow rule is written in the language a host reads (its settings, its own rules files). */
export interface RuleLanguage {
  /** where such a rule goes, for people (the host's rule language names it: its settings' allow list, its rules file) */
  readonly name: string;
  /** the narrowest allow rule for this call, or undefined when the language has no rule for it */
  allowRule(tool: string, input: unknown): string | undefined;
}

/** toolgate's own `permissions.allow` (Claude Code's rule syntax): valid for every host toolgate guards */
export const TOOLGATE_RULES: RuleLanguage = {
  name: "toolgate permissions.allow",
  allowRule: (tool, input) => suggestRule(tool, input),
};

/**
 * The allow rule to suggest for a denied call, or why there is none: never for a call only the OS, a sandbox,
 * validation or toolgate itself refused (no allow rule changes that), never for a shell heredoc (the rule would
 * hold the file's body; allow the file's edit instead), never when a deny rule would still win over it; otherwise
 * the narrowest rule in the host's own rule language, when it has one for the call.
 */
export function allowRuleSuggestion(options: {
  tool: string;
  input: unknown;
  /** the sources that denied this call */
  sources: readonly string[];
  /** a deny rule (the host's or the user's) still wins over any allow rule for it */
  denyRuleWins: boolean;
  language?: RuleLanguage;
}): { rule: string; language: string } | { rule: null; why: string } {
  if (options.sources.length > 0 && options.sources.every((source) => NO_RULE_SOURCES.includes(source)))
    return { rule: null, why: "refused by the OS, a sandbox or toolgate itself: no allow rule changes that" };
  if (toolFamily(canonicalToolName(options.tool)) === "shell" && HEREDOC.test(commandOf(options.input) ?? ""))
    return { rule: null, why: "a heredoc writes a file: allow that file's edit, not a rule holding its body" };
  if (options.denyRuleWins)
    return { rule: null, why: "a deny rule wins over any allow rule: narrow or remove the deny rule" };
  const language = options.language ?? TOOLGATE_RULES;
  const rule = language.allowRule(options.tool, options.input);
  if (rule === undefined) return { rule: null, why: `${language.name} has no rule for this call` };
  return { rule, language: language.name };
}
