import type { Outcome } from "./outcome.js";
import { PERMISSION_MODES, type PermissionMode, type PolicyDecision } from "./policy-types.js";

/**
 * Turns an outcome into a decision: the permission mode decides what no rule, grant or default decided, and an
 * ask that nobody can answer becomes a deny.
 * - default / acceptEdits: undecided -> ask.
 * - plan: undecided -> deny (source mode): observed with Claude Code 2.1.330, writes are refused ("Cannot write to
 *   ... while in plan mode") and other non-read-only calls are not run; reads and allowed calls still run.
 * - dontAsk: undecided or ask -> deny (source mode): only what is pre-approved runs.
 * - bypassPermissions: undecided -> allow; explicit ask and deny rules still apply.
 * - not interactive: ask -> deny, denialSource `headless` (no prompt surface; never a hang).
 */
export function applyMode(outcome: Outcome, options: { mode: PermissionMode; interactive: boolean }): PolicyDecision {
  const shared = outcome.decisions;
  if (shared === undefined) return applyModeOnce(outcome, options);
  // a shared outcome: its decision in this mode and session kind, built once and frozen
  const slot = PERMISSION_MODES.indexOf(options.mode) * 2 + (options.interactive ? 1 : 0);
  if (slot < 0) return applyModeOnce(outcome, options);
  let decision = shared[slot];
  if (decision === undefined) {
    decision = Object.freeze(applyModeOnce(outcome, options));
    shared[slot] = decision;
  }
  return decision;
}

/** `applyMode` building a new decision every time (the reference the shared decisions are tested against). */
export function applyModeOnce(
  outcome: Outcome,
  options: { mode: PermissionMode; interactive: boolean },
): PolicyDecision {
  const { mode, interactive } = options;
  if (outcome.behavior === "deny") {
    return decision(
      "deny",
      outcome,
      outcome.source,
      outcome.reason,
      outcome.denialSource ?? (outcome.source === "mode" ? "mode" : "rule"),
      outcome.removesTool === true,
    );
  }
  if (outcome.behavior === "allow") return decision("allow", outcome, outcome.source, outcome.reason);
  if (outcome.behavior === undefined) {
    if (mode === "bypassPermissions") return decision("allow", outcome, "mode", "Allowed by bypassPermissions mode.");
    if (mode === "dontAsk" || mode === "plan") return modeDeny(mode, outcome);
  } else if (mode === "dontAsk") {
    return modeDeny(mode, outcome);
  }
  const source = outcome.behavior === "ask" ? outcome.source : "default";
  if (!interactive) {
    return decision(
      "deny",
      outcome,
      source,
      `${outcome.reason} Nobody can approve it in this non-interactive session, so it is denied.`,
      "headless",
    );
  }
  return decision("ask", outcome, source, outcome.reason);
}

/**
 * A decision with the outcome's rule and origin (when it has them), its fields always in one order: behavior, rule,
 * origin, source, reason, denialSource, removesTool. Built field by field (no object spreads: this runs on every
 * first-seen call).
 */
function decision(
  behavior: PolicyDecision["behavior"],
  outcome: Outcome,
  source: PolicyDecision["source"],
  reason: string,
  denialSource?: PolicyDecision["denialSource"],
  removesTool = false,
): PolicyDecision {
  const { rule, origin } = outcome;
  let result: PolicyDecision;
  if (rule === undefined) {
    result = origin === undefined ? ({ behavior } as PolicyDecision) : ({ behavior, origin } as PolicyDecision);
  } else {
    result =
      origin === undefined ? ({ behavior, rule } as PolicyDecision) : ({ behavior, rule, origin } as PolicyDecision);
  }
  result.source = source;
  result.reason = reason;
  if (denialSource !== undefined) result.denialSource = denialSource;
  if (removesTool) result.removesTool = true;
  return result;
}

function modeDeny(mode: PermissionMode, outcome: Outcome): PolicyDecision {
  const reason =
    mode === "dontAsk"
      ? "Denied because the session runs in dontAsk mode: only pre-approved calls run."
      : "Denied because the session is in plan mode: nothing that changes the system runs while planning.";
  return decision("deny", outcome, "mode", reason, "mode");
}
