import type { Outcome } from "./outcome.js";
import type { PermissionMode, PolicyDecision } from "./policy-types.js";

/**
 * Turns an outcome into a decision: the permission mode decides what no rule, grant or default decided, and an
 * ask that nobody can answer becomes a deny.
 * - default / acceptEdits / plan: undecided -> ask (plan mode adds no permissions: Claude Code keeps the model to
 *   planning through its instructions, and anything not allowed still needs approval).
 * - dontAsk: undecided or ask -> deny (source mode): only what is pre-approved runs.
 * - bypassPermissions: undecided -> allow; explicit ask and deny rules still apply.
 * - not interactive: ask -> deny, denialSource `headless` (no prompt surface; never a hang).
 */
export function applyMode(outcome: Outcome, options: { mode: PermissionMode; interactive: boolean }): PolicyDecision {
  const { mode, interactive } = options;
  const base = {
    ...(outcome.rule === undefined ? {} : { rule: outcome.rule }),
    ...(outcome.origin === undefined ? {} : { origin: outcome.origin }),
  };
  if (outcome.behavior === "deny") {
    return {
      behavior: "deny",
      ...base,
      source: outcome.source,
      reason: outcome.reason,
      denialSource: outcome.source === "mode" ? "mode" : "rule",
      ...(outcome.removesTool ? { removesTool: true } : {}),
    };
  }
  if (outcome.behavior === "allow")
    return { behavior: "allow", ...base, source: outcome.source, reason: outcome.reason };
  if (outcome.behavior === undefined) {
    if (mode === "bypassPermissions") {
      return { behavior: "allow", ...base, source: "mode", reason: "Allowed by bypassPermissions mode." };
    }
    if (mode === "dontAsk") return modeDeny(base);
  } else if (mode === "dontAsk") {
    return modeDeny(base);
  }
  const source = outcome.behavior === "ask" ? outcome.source : "default";
  if (!interactive) {
    return {
      behavior: "deny",
      ...base,
      source,
      reason: `${outcome.reason} Nobody can approve it in this non-interactive session, so it is denied.`,
      denialSource: "headless",
    };
  }
  return { behavior: "ask", ...base, source, reason: outcome.reason };
}

function modeDeny(base: { rule?: string; origin?: string }): PolicyDecision {
  const reason = "Denied because the session runs in dontAsk mode: only pre-approved calls run.";
  return { behavior: "deny", ...base, source: "mode", reason, denialSource: "mode" };
}
