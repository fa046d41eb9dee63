import type { CompiledRule } from "./compile-rule.js";

/** The rules that can apply to one tool, pre-sorted by what they test, so evaluation never scans all rules. */
export interface ToolRules {
  all: readonly CompiledRule[];
  /** bare tool rules and tool-name globs */
  whole: readonly CompiledRule[];
  parameter: readonly CompiledRule[];
  /** command rules by their literal first word */
  commandByWord: ReadonlyMap<string, readonly CompiledRule[]>;
  /** command rules whose first word has a wildcard: checked for every subcommand */
  commandWild: readonly CompiledRule[];
  /** argv-prefix rules (a host's own `prefix_rule`s): checked against every subcommand's argv */
  argv: readonly CompiledRule[];
  /** path and domain rules */
  subject: readonly CompiledRule[];
  /** deny rules (for looking inside `bash -c` scripts) */
  deny: readonly CompiledRule[];
}

export function indexToolRules(rules: readonly CompiledRule[]): ToolRules {
  const commandByWord = new Map<string, CompiledRule[]>();
  const commandWild: CompiledRule[] = [];
  for (const rule of rules) {
    if (rule.kind !== "command") continue;
    if (rule.firstWord === undefined) {
      commandWild.push(rule);
      continue;
    }
    const list = commandByWord.get(rule.firstWord);
    if (list === undefined) commandByWord.set(rule.firstWord, [rule]);
    else list.push(rule);
  }
  return {
    all: rules,
    whole: rules.filter((rule) => rule.kind === "tool"),
    parameter: rules.filter((rule) => rule.kind === "parameter"),
    commandByWord,
    commandWild,
    argv: rules.filter((rule) => rule.kind === "argv"),
    subject: rules.filter((rule) => rule.kind === "path" || rule.kind === "domain"),
    deny: rules.filter((rule) => rule.behavior === "deny"),
  };
}

/** Command rules that match a subcommand (its text as written or after quote removal), in rule order. */
export function matchingCommandRules(
  rules: ToolRules,
  /** `sub`: the subcommand; `into`: where the matching rules are appended */
  options: { sub: { text: string; plain: string; head: string; plainHead: string }; into: CompiledRule[] },
): void {
  const { sub, into } = options;
  const first = rules.commandByWord.get(sub.head);
  if (first !== undefined) for (const rule of first) if (rule.test(sub.text) || rule.test(sub.plain)) into.push(rule);
  if (sub.plainHead !== sub.head) {
    const second = rules.commandByWord.get(sub.plainHead);
    if (second !== undefined) {
      for (const rule of second)
        if (!into.includes(rule) && (rule.test(sub.text) || rule.test(sub.plain))) into.push(rule);
    }
  }
  for (const rule of rules.commandWild) if (rule.test(sub.text) || rule.test(sub.plain)) into.push(rule);
}

/**
 * Argv-prefix rules that match a subcommand: its argv as the shell runs it (wrappers and `VAR=value` prefixes
 * included), or, for deny and ask rules, its words once those are removed (a stricter reading never misses a
 * refusal the host would make).
 */
export function matchingArgvRules(
  rules: ToolRules,
  /** `sub`: the subcommand; `into`: where the matching rules are appended */
  options: { sub: { argv: readonly string[]; words: readonly string[] }; into: CompiledRule[] },
): void {
  const { sub, into } = options;
  for (const rule of rules.argv) {
    if (rule.testArgv(sub.argv) || (rule.behavior !== "allow" && rule.testArgv(sub.words))) into.push(rule);
  }
}
