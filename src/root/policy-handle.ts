import type { PolicyEvaluator } from "../guard/create-guard.js";
import type { EvaluateOptions, PolicyDecision, ToolCallInput } from "../policy/policy-types.js";
import type { Policy } from "./build-policy.js";

/**
 * The composition root's policy, built when it is first needed or at once. A hook event that consults no rule (a
 * prompt, a turn's end with no refusal, a call that ran) then never reads the permission files nor compiles a rule:
 * the guard calls `prepare` before any step that may consult the policy (a decision, a recorded refusal, a grant).
 */
export interface PolicyHandle extends PolicyEvaluator {
  /** builds the policy once (the host's rule files read, every rule compiled); the same promise on every call */
  prepare(): Promise<Policy>;
  /** the policy once built, undefined before */
  readonly current: Policy | undefined;
  /** the built policy's decision; before `prepare` resolved, a deny (fail closed): never an allow */
  evaluate(call: ToolCallInput, options?: EvaluateOptions): PolicyDecision;
  /** the built policy's answer; before `prepare` resolved, false (no grant is offered) */
  canGrant(call: ToolCallInput, options?: EvaluateOptions): boolean;
}

/** A handle whose policy is built by `build` on the first `prepare` (a failed build fails every later one too). */
export function policyOnDemand(build: () => Promise<Policy>): PolicyHandle {
  let current: Policy | undefined;
  let building: Promise<Policy> | undefined;
  return {
    prepare() {
      building ??= build().then((policy) => {
        current = policy;
        return policy;
      });
      return building;
    },
    get current() {
      return current;
    },
    evaluate(call, options) {
      if (current !== undefined) return current.evaluate(call, options);
      return {
        behavior: "deny",
        source: "toolgate",
        reason: "toolgate's policy was consulted before it was built, so this call is denied (fail closed).",
        denialSource: "rule",
      };
    },
    canGrant(call, options) {
      return current?.canGrant(call, options) ?? false;
    },
  };
}

/** A handle over a policy built already. */
export function policyBuilt(policy: Policy): PolicyHandle {
  const prepared = Promise.resolve(policy);
  return {
    prepare: () => prepared,
    current: policy,
    evaluate: (call, options) => policy.evaluate(call, options),
    canGrant: (call, options) => policy.canGrant(call, options),
  };
}
