import type { CompiledConfig } from "./config.js";
import type { Decision } from "./decision.js";
import type { DecisionEffect, Effect } from "./effects.js";
import type { CallRequestedEvent, ToolgateEvent } from "./events.js";
import { advanceWindow } from "./loop-detector.js";
import type { AgentState, SessionState } from "./state.js";
import { agentKey } from "./step-context.js";

/**
 * The common events of a healthy session, handled without the general machinery: an allowed or successful call
 * with no streak to reset changes nothing, and a requested call that starts no loop only advances the loop
 * window. Returns undefined when the general path must run. Same results as the general path (a property test
 * compares them).
 */
export function fastStep(
  state: SessionState,
  event: ToolgateEvent,
  config: CompiledConfig,
): { state: SessionState; effects: Effect[] } | undefined {
  return fastPath(state, event, config, false);
}

/**
 * `fastStep` for `stepOwned`: the state is the caller's to give away, so a requested call's loop window is replaced
 * in the agent itself instead of in a copy of the state and the agent.
 */
export function fastStepOwned(
  state: SessionState,
  event: ToolgateEvent,
  config: CompiledConfig,
): { state: SessionState; effects: Effect[] } | undefined {
  return fastPath(state, event, config, true);
}

function fastPath(
  state: SessionState,
  event: ToolgateEvent,
  config: CompiledConfig,
  owned: boolean,
): { state: SessionState; effects: Effect[] } | undefined {
  switch (event.type) {
    case "call.allowed":
    case "call.succeeded": {
      if (!streakFree(state, event.agentId, event.call.tool)) return undefined;
      const agent = state.agents[agentKey(event.agentId)] as AgentState;
      if (event.type === "call.succeeded") {
        if (agent.errorStreak?.tool === event.call.tool) return undefined;
        if (state.nudge.count !== 0 || state.nudge.os) return undefined;
      }
      return { state, effects: [] };
    }
    case "call.requested": {
      if (state.aborted !== undefined) return undefined;
      const { verdict } = event;
      if (verdict?.behavior === "deny") return undefined;
      const resets = verdict?.behavior === "allow" && verdict.decidedBy !== "default";
      if (resets && !streakFree(state, event.agentId, event.call.tool)) return undefined;
      const effects = [decisionOf(event)];
      if (config.loop.isExempt(event.call.tool)) return { state, effects };
      const signature = event.call.signature;
      const key = agentKey(event.agentId);
      const agent = state.agents[key];
      if (signature === undefined || agent === undefined || agent.loopLevels["call"] !== undefined) return undefined;
      if (agent.errorStreak !== undefined && agent.errorStreak.tool === event.call.tool) return undefined;
      const advanced = advanceWindow({
        window: agent.window,
        runs: agent.runs,
        signature,
        maxLength: config.loop.maxCycleLength,
      });
      if (advanced.bestLength !== 0 && config.loop.observe !== false && advanced.bestRepeats >= config.loop.observe) {
        return undefined;
      }
      if (advanced.bestLength !== 0 && advanced.bestRepeats >= lowestLevel(config)) return undefined;
      if (owned) {
        agent.window = advanced.window;
        agent.runs = advanced.runs;
        return { state, effects };
      }
      const next: AgentState = {
        total: agent.total,
        turnTotal: agent.turnTotal,
        consecutive: agent.consecutive,
        tools: agent.tools,
        patterns: agent.patterns,
        window: advanced.window,
        runs: advanced.runs,
        loopLevels: agent.loopLevels,
      };
      if (agent.errorStreak !== undefined) next.errorStreak = agent.errorStreak;
      const agents = { ...state.agents };
      agents[key] = next;
      return { state: { ...state, agents }, effects };
    }
    default:
      return undefined;
  }
}

/** Whether the agent has counters and no denial streak (overall or for this tool) that an allow would reset. */
function streakFree(state: SessionState, agentId: string | undefined, tool: string): boolean {
  const agent = state.agents[agentKey(agentId)];
  if (agent === undefined || agent.consecutive !== 0) return false;
  const counters = agent.tools[tool];
  return counters === undefined || (counters.consecutive === 0 && counters.streaking.length === 0);
}

/** The decision of a call that nothing refused: the verdict as given, or the default (the host decides). */
function decisionOf(event: CallRequestedEvent): DecisionEffect {
  const { verdict, call } = event;
  const decision: Decision =
    verdict === undefined
      ? { behavior: "allow", source: "default", reason: "no toolgate policy; the host decides" }
      : { behavior: verdict.behavior, source: verdict.decidedBy, reason: verdict.reason };
  if (verdict?.rule !== undefined) decision.rule = verdict.rule;
  return { type: "decision", toolUseId: call.toolUseId, tool: call.tool, decision };
}

function lowestLevel(config: CompiledConfig): number {
  const { observe, steer, block, stop } = config.loop;
  let lowest = stop;
  for (const level of [observe, steer, block]) if (level !== false && level < lowest) lowest = level;
  return lowest;
}
