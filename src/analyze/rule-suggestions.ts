import type { CorePorts } from "../core/config.js";
import type { DenialSource, ToolCall } from "../core/events.js";
import { allowRuleSuggestion, type RuleLanguage } from "../policy/grants/allow-rule-suggestion.js";
import type { SuggestedAllowRule } from "./analysis-types.js";

/**
 * The narrowest allow rule for each distinct denied call, in the host's own rule language (its descriptor's
 * `ruleLanguage`; toolgate's rules for a host without one), redacted and counted. None for a call only the OS, a
 * sandbox or toolgate refused, none for a shell heredoc, and none when a deny rule would still win over it: the
 * host's own rule refused the call, or the user's policy would not let a grant through (`canGrant` false).
 */
export class RuleSuggestions {
  private readonly rules = new Map<string, SuggestedAllowRule>();

  constructor(
    private readonly ports: CorePorts,
    private readonly canGrant: (call: { tool: string; input: unknown }) => boolean,
    private readonly language?: RuleLanguage,
  ) {}

  add(call: ToolCall, source: DenialSource): void {
    const suggestion = allowRuleSuggestion({
      tool: call.tool,
      input: call.input,
      sources: [source],
      denyRuleWins: source === "rule" || !this.canGrant({ tool: call.tool, input: call.input }),
      ...(this.language === undefined ? {} : { language: this.language }),
    });
    if (suggestion.rule === null) return;
    const rule = this.ports.redactText(suggestion.rule);
    const existing = this.rules.get(rule);
    if (existing !== undefined) {
      existing.count += 1;
      return;
    }
    this.rules.set(rule, {
      rule,
      language: suggestion.language,
      tool: call.tool,
      count: 1,
      source,
      denyRuleWins: false,
      example: call.summary ?? "",
    });
  }

  /** most denials first */
  list(): SuggestedAllowRule[] {
    return [...this.rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  }
}
