import type { CorePorts } from "../core/config.js";
import type { DenialSource, ToolCall } from "../core/events.js";
import type { SuggestedAllowRule } from "./analysis-types.js";

/** sources that are not about permission: no allow rule is suggested for them */
const NO_SUGGESTION = new Set<string>(["loop", "sandbox", "validation", "aborted", "internal"]);

/**
 * The narrowest allow rule for each distinct denied call (the policy layer's `suggestRule`, through the ports so it
 * is redacted), counted, and marked when a deny rule still wins over it: the host's own rule refused the call, or
 * the user's policy would not let a grant through (`canGrant` false: a deny rule or `neverGrant`).
 */
export class RuleSuggestions {
  private readonly rules = new Map<string, SuggestedAllowRule>();

  constructor(
    private readonly ports: CorePorts,
    private readonly canGrant: (call: { tool: string; input: unknown }) => boolean,
  ) {}

  add(call: ToolCall, source: DenialSource): void {
    if (NO_SUGGESTION.has(source)) return;
    const rule = this.ports.suggestRule(call.tool, call.input);
    const existing = this.rules.get(rule);
    if (existing !== undefined) {
      existing.count += 1;
      return;
    }
    const wins = source === "rule" || !this.canGrant({ tool: call.tool, input: call.input });
    this.rules.set(rule, { rule, tool: call.tool, count: 1, source, denyRuleWins: wins, example: call.summary ?? "" });
  }

  /** most denials first */
  list(): SuggestedAllowRule[] {
    return [...this.rules.values()].sort((a, b) => b.count - a.count || a.rule.localeCompare(b.rule));
  }
}
