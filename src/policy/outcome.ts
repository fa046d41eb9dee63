import type { Behavior } from "../core/decision.js";
import type { CompiledRule } from "./compile-rule.js";
import type { PolicyDecision } from "./policy-types.js";

/**
 * What rules, grants and defaults said about a call before the permission mode and the headless conversion are
 * applied. `behavior: undefined` means nothing decided: the mode decides.
 */
export interface Outcome {
  behavior: Behavior | undefined;
  source: PolicyDecision["source"];
  rule?: string;
  origin?: string;
  reason: string;
  removesTool?: boolean;
  /** how a deny that no rule made is recorded: `validation` for a call toolgate cannot read */
  denialSource?: "validation";
}

/** What a rule decided; `reason` is toolgate's sentence, unless the rule brings the host's own (`PolicyRule.reason`). */
export function ruleOutcome(rule: CompiledRule, reason: string): Outcome {
  // built field by field (no spreads: this runs on most first-seen calls), fields in the same order
  const outcome: Outcome =
    rule.origin === undefined
      ? { behavior: rule.behavior, source: "policy", rule: rule.rule, reason: rule.reason ?? reason }
      : {
          behavior: rule.behavior,
          source: "policy",
          rule: rule.rule,
          origin: rule.origin,
          reason: rule.reason ?? reason,
        };
  if (rule.behavior === "deny" && rule.removesTool) outcome.removesTool = true;
  return outcome;
}

/** A session grant let the call through. */
export function grantOutcome(rule: string): Outcome {
  return { behavior: "allow", source: "grant", rule, reason: `Allowed by the session grant ${rule}.` };
}

export function fromOrigin(rule: CompiledRule): string {
  return rule.origin === undefined ? "" : ` (${rule.origin})`;
}
