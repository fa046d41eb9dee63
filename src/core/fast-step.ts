import type { CompiledConfig } from "./config.js";
import type { ToolgateEvent } from "./events.js";
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
): { state: SessionState; effects: [] } | undefined {
  switch (event.type) {
    case "call.allowed":
    case "call.succeeded": {
      const agent = state.agents[agentKey(event.agentId)];
      if (agent === undefined || agent.consecutive !== 0) return undefined;
      const tool = agent.tools[event.call.tool];
      if (tool !== undefined && (tool.consecutive !== 0 || tool.streaking.length !== 0)) return undefined;
      if (event.type === "call.succeeded") {
        if (agent.errorStreak?.tool === event.call.tool) return undefined;
        if (state.nudge.count !== 0 || state.nudge.os) return undefined;
      }
      return { state, effects: [] };
    }
    case "call.requested": {
      if (state.aborted !== undefined) return undefined;
      if (config.loop.isExempt(event.call.tool)) return { state, effects: [] };
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
      return { state: { ...state, agents }, effects: [] };
    }
    default:
      return undefined;
  }
}

function lowestLevel(config: CompiledConfig): number {
  const { observe, steer, block, stop } = config.loop;
  let lowest = stop;
  for (const level of [observe, steer, block]) if (level !== false && level < lowest) lowest = level;
  return lowest;
}
