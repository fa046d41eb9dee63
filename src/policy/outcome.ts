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
  /**
   * Present on a shared outcome (`shareOutcome`: one frozen object for every call it decides): its decision per mode
   * and session kind, built once by `applyMode` and frozen. Never copied into another outcome.
   */
  readonly decisions?: (PolicyDecision | undefined)[] | undefined;
}

/**
 * Makes an outcome shared: frozen, with a slot per mode and session kind for its decision, so the many calls it
 * decides get one frozen decision instead of a new object each (property-tested against building each decision).
 */
export function shareOutcome(outcome: Outcome): Outcome {
  return Object.freeze({ ...outcome, decisions: [] });
}

const allowedBy = new WeakMap<CompiledRule, Outcome>();

/** What an allow rule decides, the same for every call it allows (shared: one outcome per rule). */
export function allowOutcome(rule: CompiledRule): Outcome {
  let outcome = allowedBy.get(rule);
  if (outcome === undefined) {
    outcome = shareOutcome(ruleOutcome(rule, `Allowed by ${rule.rule}${fromOrigin(rule)}.`));
    allowedBy.set(rule, outcome);
  }
  return outcome;
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
