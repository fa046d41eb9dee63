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
 * An outcome with every field present, in one order (a field it does not have is undefined): `applyMode`,
 * `evaluateShell` and the cache read outcomes of every kind at the same places, and one object shape keeps those
 * reads monomorphic instead of megamorphic (a generic lookup per read). Every outcome is built through it.
 */
export function makeOutcome(fields: Outcome): Outcome {
  return {
    behavior: fields.behavior,
    source: fields.source,
    rule: fields.rule,
    origin: fields.origin,
    reason: fields.reason,
    removesTool: fields.removesTool,
    denialSource: fields.denialSource,
    decisions: fields.decisions,
  };
}

/**
 * Makes an outcome shared: frozen, with a slot per mode and session kind for its decision, so the many calls it
 * decides get one frozen decision instead of a new object each (property-tested against building each decision).
 */
export function shareOutcome(outcome: Outcome): Outcome {
  return Object.freeze(makeOutcome({ ...outcome, decisions: [] }));
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
  return makeOutcome({
    behavior: rule.behavior,
    source: "policy",
    rule: rule.rule,
    origin: rule.origin,
    reason: rule.reason ?? reason,
    removesTool: rule.behavior === "deny" && rule.removesTool ? true : undefined,
  });
}

/** A session grant let the call through. */
export function grantOutcome(rule: string): Outcome {
  return makeOutcome({ behavior: "allow", source: "grant", rule, reason: `Allowed by the session grant ${rule}.` });
}

export function fromOrigin(rule: CompiledRule): string {
  return rule.origin === undefined ? "" : ` (${rule.origin})`;
}
