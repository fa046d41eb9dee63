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
  return {
    behavior: rule.behavior,
    source: "policy",
    rule: rule.rule,
    ...(rule.origin === undefined ? {} : { origin: rule.origin }),
    reason: rule.reason ?? reason,
    ...(rule.behavior === "deny" && rule.removesTool ? { removesTool: true } : {}),
  };
}

/** A session grant let the call through. */
export function grantOutcome(rule: string): Outcome {
  return { behavior: "allow", source: "grant", rule, reason: `Allowed by the session grant ${rule}.` };
}

export function fromOrigin(rule: CompiledRule): string {
  return rule.origin === undefined ? "" : ` (${rule.origin})`;
}
