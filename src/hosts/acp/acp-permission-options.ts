import type { PermissionOption, RequestPermissionOutcome } from "@agentclientprotocol/sdk";
import type { OfferGrantEffect } from "../../core/effects.js";

/** The option id toolgate adds for its session grant (never one an agent offers: agents' ids are their own words). */
export const GRANT_OPTION_PREFIX = "toolgate-grant:";

/** The option toolgate adds to a permission request: its minimum-scope session grant, its label naming the scope. */
export function grantOption(offer: OfferGrantEffect): PermissionOption {
  return {
    optionId: `${GRANT_OPTION_PREFIX}${offer.offerId}`,
    name: `Allow ${offer.scope.description} for this session (toolgate)`,
    kind: "allow_once",
  };
}

/** The offer id of toolgate's grant option, when `optionId` is one. */
export function grantOptionOffer(optionId: string): string | undefined {
  return optionId.startsWith(GRANT_OPTION_PREFIX) ? optionId.slice(GRANT_OPTION_PREFIX.length) : undefined;
}

/**
 * The answer that refuses the call, among the options the agent offered: `reject_once` first (toolgate refuses this
 * call, not every later one), else `reject_always`. An agent that offered no reject option gets `cancelled`, the
 * only refusal left in ACP.
 */
export function rejectOutcome(options: readonly PermissionOption[]): RequestPermissionOutcome {
  const reject =
    options.find((option) => option.kind === "reject_once") ??
    options.find((option) => option.kind === "reject_always");
  return reject === undefined ? { outcome: "cancelled" } : { outcome: "selected", optionId: reject.optionId };
}

/** The agent's own `allow_once` option (what toolgate answers for a call its session grant covers), if offered. */
export function allowOnceOutcome(options: readonly PermissionOption[]): RequestPermissionOutcome | undefined {
  const allow = options.find((option) => option.kind === "allow_once");
  return allow === undefined ? undefined : { outcome: "selected", optionId: allow.optionId };
}

/**
 * What the person's answer means: an allow only when it names an allow option the agent offered; any other answer
 * (a reject option, `cancelled`, an option id the agent did not offer) is a refusal.
 */
export function answerAllows(outcome: RequestPermissionOutcome, options: readonly PermissionOption[]): boolean {
  if (outcome.outcome !== "selected") return false;
  const chosen = options.find((option) => option.optionId === outcome.optionId);
  return chosen !== undefined && (chosen.kind === "allow_once" || chosen.kind === "allow_always");
}
