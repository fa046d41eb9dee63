import type { CallFacts, CompiledConfig, CorePorts } from "./config.js";
import type { Effect } from "./effects.js";
import type { ToolCall } from "./events.js";
import { emptyAgentState } from "./initial-state.js";
import { type AgentState, MAIN_AGENT, type SessionState } from "./state.js";

/**
 * The working set of one `step`: a shallow copy of the state that is copied further on write, the effects so far,
 * and the config. Rule inside the reducer: only objects created during this step are mutated; the caller's state
 * is never touched.
 */
export interface StepContext {
  state: SessionState;
  effects: Effect[];
  config: CompiledConfig;
  /** the agents already copied in this step (most steps touch one: a list, not a set) */
  copiedAgents: string[];
  /**
   * true when the caller gave the state away (`stepOwned`): the step writes the state, its agents and their
   * counter maps in place instead of copying them
   */
  owned: boolean;
}

export function createStepContext(state: SessionState, config: CompiledConfig): StepContext {
  return { state: { ...state }, effects: [], config, copiedAgents: [], owned: false };
}

/** The working set of a step that owns `state` (`stepOwned`): nothing is copied, the state is written in place. */
export function ownedStepContext(state: SessionState, config: CompiledConfig): StepContext {
  return { state, effects: [], config, copiedAgents: [], owned: true };
}

export function agentKey(agentId: string | undefined): string {
  return agentId ?? MAIN_AGENT;
}

/**
 * The agent's counters, copied on first write in this step (created if the agent is new). The loop window and runs
 * are shared, not copied: they are never written in place, only replaced (`advanceWindow` returns new arrays; a
 * turn starts empty ones), so the caller's arrays stay untouched (the property test freezes them). In a step that
 * owns its state (`stepOwned`), the agent itself, written in place.
 */
export function writableAgent(context: StepContext, agentId: string | undefined): AgentState {
  const key = agentKey(agentId);
  if (context.owned) {
    const owned = context.state.agents[key];
    if (owned !== undefined) return owned;
    const created = emptyAgentState();
    context.state.agents[key] = created;
    return created;
  }
  if (context.copiedAgents.includes(key)) return context.state.agents[key] as AgentState;
  if (context.copiedAgents.length === 0) context.state.agents = { ...context.state.agents };
  const current = context.state.agents[key] ?? emptyAgentState();
  const copy: AgentState = {
    ...current,
    tools: { ...current.tools },
    patterns: { ...current.patterns },
    loopLevels: { ...current.loopLevels },
  };
  context.state.agents[key] = copy;
  context.copiedAgents.push(key);
  return copy;
}

/** Signature, pattern and summary of a call: from the event when the edge filled them, else from the ports. */
export function callFacts(context: StepContext, call: ToolCall): CallFacts {
  const full = withCallFacts(call, context.config.ports);
  return {
    signature: full.signature as string,
    pattern: full.pattern as string,
    summary: full.summary as string,
    redactedInput: full.redactedInput,
  };
}

/**
 * The one call-facts function: the call with its signature, pattern, summary and redacted input filled from the
 * ports where the caller did not fill them (the call itself when complete). Edges call it once per call, so every
 * event of the call carries the same facts and the reducer computes nothing again.
 */
export function withCallFacts(call: ToolCall, ports: Pick<CorePorts, "describeCall">): ToolCall {
  if (
    call.signature !== undefined &&
    call.pattern !== undefined &&
    call.summary !== undefined &&
    "redactedInput" in call
  )
    return call;
  const described = ports.describeCall(call.tool, call.input);
  return {
    ...call,
    signature: call.signature ?? described.signature,
    pattern: call.pattern ?? described.pattern,
    summary: call.summary ?? described.summary,
    redactedInput: "redactedInput" in call ? call.redactedInput : described.redactedInput,
  };
}

export function patternKey(tool: string, pattern: string): string {
  return `${tool} ${pattern}`;
}

/** Ids the reducer creates are derived from the session and a counter, so replays produce the same ids. */
export function nextId(context: StepContext, prefix: string): string {
  const id = `${prefix}-${context.state.nextId}`;
  context.state.nextId += 1;
  return id;
}
