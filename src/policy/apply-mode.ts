import type { Outcome } from "./outcome.js";
import type { PermissionMode, PolicyDecision } from "./policy-types.js";

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
      denialSource: outcome.denialSource ?? (outcome.source === "mode" ? "mode" : "rule"),
      ...(outcome.removesTool ? { removesTool: true } : {}),
    };
  }
  if (outcome.behavior === "allow")
    return { behavior: "allow", ...base, source: outcome.source, reason: outcome.reason };
  if (outcome.behavior === undefined) {
    if (mode === "bypassPermissions") {
      return { behavior: "allow", ...base, source: "mode", reason: "Allowed by bypassPermissions mode." };
    }
    if (mode === "dontAsk" || mode === "plan") return modeDeny(mode, base);
  } else if (mode === "dontAsk") {
    return modeDeny(mode, base);
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

function modeDeny(mode: PermissionMode, base: { rule?: string; origin?: string }): PolicyDecision {
  const reason =
    mode === "dontAsk"
      ? "Denied because the session runs in dontAsk mode: only pre-approved calls run."
      : "Denied because the session is in plan mode: nothing that changes the system runs while planning.";
  return { behavior: "deny", ...base, source: "mode", reason, denialSource: "mode" };
}
