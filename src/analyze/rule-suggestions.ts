import type { CorePorts } from "../core/config.js";
import type { DenialSource, ToolCall } from "../core/events.js";
import { byteOrder } from "../core/figures.js";
import { allowRuleSuggestion, type RuleLanguage } from "../policy/grants/allow-rule-suggestion.js";
import type { SuggestedAllowRule } from "./analysis-types.js";

/** a suggested rule, redacted, and the rule language it is written in */
interface Suggested {
  rule: string;
  language: string;
}

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

  /**
   * the redacted rule (null: none) per input object, tool and source: the replay interns inputs (memoize-ports.ts),
   * so a call denied again is not parsed and checked against the policy again; bounded by the distinct calls
   */
  private readonly known = new WeakMap<object, Map<string, Suggested | null>>();

  add(call: ToolCall, source: DenialSource): void {
    const { input } = call;
    const byInput = input !== null && typeof input === "object" ? this.known.get(input) : undefined;
    const id = `${source}\u0000${call.tool}`;
    let suggested = byInput?.get(id);
    if (suggested === undefined) {
      suggested = this.suggest(call, source);
      if (input !== null && typeof input === "object") {
        if (byInput === undefined) this.known.set(input, new Map([[id, suggested]]));
        else byInput.set(id, suggested);
      }
    }
    if (suggested === null) return;
    const { rule } = suggested;
    const existing = this.rules.get(rule);
    if (existing !== undefined) {
      existing.count += 1;
      return;
    }
    this.rules.set(rule, {
      rule,
      language: suggested.language,
      tool: call.tool,
      count: 1,
      source,
      denyRuleWins: false,
      example: call.summary ?? "",
    });
  }

  private suggest(call: ToolCall, source: DenialSource): Suggested | null {
    const suggestion = allowRuleSuggestion({
      tool: call.tool,
      input: call.input,
      sources: [source],
      denyRuleWins: source === "rule" || !this.canGrant({ tool: call.tool, input: call.input }),
      ...(this.language === undefined ? {} : { language: this.language }),
    });
    return suggestion.rule === null
      ? null
      : { rule: this.ports.redactText(suggestion.rule), language: suggestion.language };
  }

  /** most denials first */
  list(): SuggestedAllowRule[] {
    return [...this.rules.values()].sort((a, b) => b.count - a.count || byteOrder(a.rule, b.rule));
  }
}
