import type { PolicyDecision } from "../policy/policy-types.js";

/**
 * How strict a decision is when two rule sets are combined: a deny (not an unanswerable ask) > an ask, or an ask
 * nobody can answer (a headless deny) > an allow > no rule matched (`source: "default"`, no opinion).
 */
function strictness(decision: PolicyDecision): number {
  if (decision.source === "default") return 0;
  if (decision.behavior === "deny" && decision.denialSource !== "headless") return 3;
  if (decision.behavior === "allow") return 1;
  return 2;
}

/**
 * toolgate's decision combined with a host's own (its descriptor's `permissionRules`), each already decided under
 * its own precedence: the stricter one wins, toolgate's on a tie, unless only the host's names a rule (an ask
 * toolgate's checks made, say for an unparsable command, beside the host's `prompt` rule: the rule is what the
 * record, the guidance and a headless host need). A host allow never outranks a toolgate deny, and a host rule that
 * does not match leaves toolgate's decision as it is.
 */
export function stricterDecision(own: PolicyDecision, host: PolicyDecision): PolicyDecision {
  const hostStrictness = strictness(host);
  const ownStrictness = strictness(own);
  if (hostStrictness !== ownStrictness) return hostStrictness > ownStrictness ? host : own;
  return own.rule === undefined && host.rule !== undefined && host.behavior === own.behavior ? host : own;
}
