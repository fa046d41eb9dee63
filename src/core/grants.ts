import { audit } from "./audit-event.js";
import type { Grant } from "./effects.js";
import type { GrantAnsweredEvent, GrantRevokedEvent } from "./events.js";
import { resetToolStreaks } from "./reset-streaks.js";
import { nextId, patternKey, type StepContext, writableAgent } from "./step-context.js";

/**
 * A person answered an offer. Accept: record a session grant of the offered (minimum) scope and reset that tool's
 * streaks. Decline: remember it (no second offer for the pattern) and fall back. An answer to an unknown offer
 * creates nothing. This is the only path by which a grant comes to exist.
 */
export function onGrantAnswered(context: StepContext, event: GrantAnsweredEvent): void {
  const { state, config } = context;
  const offer = state.offers[event.offerId];
  if (offer === undefined) {
    context.effects.push({
      type: "warning",
      code: "GRANT_OFFER_UNKNOWN",
      message: `No pending grant offer ${event.offerId} in session ${state.sessionId}; nothing was granted.`,
    });
    return;
  }
  const offers = { ...state.offers };
  delete offers[event.offerId];
  state.offers = offers;
  const agentId = offer.agentId === "main" ? undefined : offer.agentId;
  const withAgent = agentId === undefined ? event : { ...event, agentId };
  if (event.accepted) {
    const grant: Grant = {
      id: nextId(context, "grant"),
      scope: offer.scope,
      sessionId: state.sessionId,
      grantedAt: event.at,
      pattern: offer.pattern,
    };
    if (event.answeredBy !== undefined) grant.answeredBy = event.answeredBy;
    state.grants = [...state.grants, grant];
    resetToolStreaks(writableAgent(context, agentId), offer.tool);
    context.effects.push(
      audit(context, {
        kind: "grant.recorded",
        event: withAgent,
        detail: { grantId: grant.id, rule: grant.scope.rule, kind: grant.scope.kind, answeredBy: event.answeredBy },
      }),
    );
    return;
  }
  state.declined = [...state.declined, patternKey(offer.tool, offer.pattern)];
  const text = config.templates.declined({ tool: offer.tool, pattern: offer.pattern });
  context.effects.push({ type: "fallback", toolUseId: offer.toolUseId, tool: offer.tool, text });
  context.effects.push(
    audit(context, {
      kind: "grant.declined",
      event: withAgent,
      detail: { offerId: event.offerId, rule: offer.scope.rule },
    }),
  );
}

export function onGrantRevoked(context: StepContext, event: GrantRevokedEvent): void {
  const { state } = context;
  const grant = state.grants.find((candidate) => candidate.id === event.grantId);
  if (grant === undefined) return;
  state.grants = state.grants.filter((candidate) => candidate.id !== event.grantId);
  context.effects.push(
    audit(context, { kind: "grant.revoked", event, detail: { grantId: grant.id, rule: grant.scope.rule } }),
  );
}
