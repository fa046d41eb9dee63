import { addCallTokens } from "./call-tokens.js";
import type { CompiledConfig } from "./config.js";
import type { Effect } from "./effects.js";
import type { CallFailedEvent, ToolgateEvent } from "./events.js";
import { fastStep, fastStepOwned } from "./fast-step.js";
import { onGrantAnswered, onGrantRevoked } from "./grants.js";
import { trackSameError } from "./loop-detector.js";
import { resetNudgeStreak } from "./nudge.js";
import { onCallDenied } from "./on-call-denied.js";
import { onCallAllowed, onCallRequested } from "./on-call-requested.js";
import { resetToolStreaks } from "./reset-streaks.js";
import type { SessionState } from "./state.js";
import { createStepContext, ownedStepContext, type StepContext, writableAgent } from "./step-context.js";
import { flush, onSessionEnded, onTurnEnded, onTurnStarted } from "./turns.js";

export interface StepResult {
  state: SessionState;
  effects: Effect[];
}

/**
 * The denial state machine: one pure, synchronous transition. It reads no clock (events carry `at`), performs no
 * I/O, and never mutates `state`; the same inputs always give the same output.
 */
export function step(state: SessionState, event: ToolgateEvent, config: CompiledConfig): StepResult {
  if (state.warned || config.warnings.length === 0) {
    const fast = fastStep(state, event, config);
    if (fast !== undefined) return fast;
  }
  return stepGeneral(state, event, config);
}

/**
 * `step` for a caller that gives its state away: the same transition and effects, but `state` (with its agents and
 * their counter maps) may be written in place and returned, instead of being copied. Only for a state nobody else
 * holds, such as the transcript replay's (`analyze`): the caller must not keep, share or read the given state
 * afterwards, only the returned one. Still no I/O and no clock; a property test compares it with `step`.
 */
export function stepOwned(state: SessionState, event: ToolgateEvent, config: CompiledConfig): StepResult {
  if (state.warned || config.warnings.length === 0) {
    const fast = fastStepOwned(state, event, config);
    if (fast !== undefined) return fast;
  }
  return transition(ownedStepContext(state, config), event);
}

/** The general path of `step`, without the fast paths (exported for the property test that compares them). */
export function stepGeneral(state: SessionState, event: ToolgateEvent, config: CompiledConfig): StepResult {
  return transition(createStepContext(state, config), event);
}

function transition(context: StepContext, event: ToolgateEvent): StepResult {
  const { state, config } = context;
  if (!state.warned && config.warnings.length > 0) {
    for (const warning of config.warnings) context.effects.push({ type: "warning", ...warning });
    context.state.warned = true;
  }
  switch (event.type) {
    case "session.ended":
      onSessionEnded(context, event);
      break;
    case "turn.started":
      onTurnStarted(context, event);
      break;
    case "turn.ended":
      onTurnEnded(context, event);
      break;
    case "call.requested":
      onCallRequested(context, event);
      break;
    case "call.allowed":
      onCallAllowed(context, event);
      break;
    case "call.denied":
      onCallDenied(context, event);
      break;
    case "call.succeeded": {
      const agent = writableAgent(context, event.agentId);
      agent.consecutive = 0;
      resetToolStreaks(agent, event.call.tool);
      if (agent.errorStreak?.tool === event.call.tool) delete agent.errorStreak;
      resetNudgeStreak(context);
      break;
    }
    case "call.failed":
      onCallFailed(context, event);
      break;
    case "subagent.started":
      writableAgent(context, event.agentId);
      break;
    case "subagent.stopped":
      addCallTokens(context, event.callTokens, { part: true });
      flush(context, "subagent-stopped");
      break;
    case "grant.answered":
      onGrantAnswered(context, event);
      break;
    case "grant.revoked":
      onGrantRevoked(context, event);
      break;
  }
  return { state: context.state, effects: context.effects };
}

/**
 * A failure classified as an OS or sandbox denial is a denial with source `sandbox` (recorded, counted, nudged).
 * Any failure feeds the same-error streak. A failure that is not a denial neither counts nor resets a streak.
 */
function onCallFailed(context: StepContext, event: CallFailedEvent): void {
  trackSameError(context, event);
  if (event.osDenial === undefined) return;
  const denied = {
    type: "call.denied" as const,
    at: event.at,
    sessionId: event.sessionId,
    call: event.call,
    source: "sandbox" as const,
    reason: `${event.osDenial.kind}: ${event.osDenial.evidence}`,
    osDenial: event.osDenial,
  };
  onCallDenied(context, event.agentId === undefined ? denied : { ...denied, agentId: event.agentId });
}
