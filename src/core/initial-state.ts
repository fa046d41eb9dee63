import { type AgentState, MAIN_AGENT, type SessionState } from "./state.js";

export function emptyAgentState(): AgentState {
  return { total: 0, turnTotal: 0, consecutive: 0, tools: {}, patterns: {}, window: [], runs: [], loopLevels: {} };
}

/** A fresh session: no denials, no grants, the main agent only. */
export function initialState(options: {
  sessionId: string;
  interactive: boolean;
  parentSessionId?: string;
  host?: string;
  labels?: Record<string, string>;
}): SessionState {
  const state: SessionState = {
    v: 1,
    sessionId: options.sessionId,
    interactive: options.interactive,
    turn: 0,
    agents: { [MAIN_AGENT]: emptyAgentState() },
    records: [],
    total: 0,
    highWaterMark: 0,
    grants: [],
    offers: {},
    declined: [],
    nudge: { count: 0, os: false, recent: [] },
    nextId: 1,
    warned: false,
  };
  if (options.parentSessionId !== undefined) state.parentSessionId = options.parentSessionId;
  if (options.host !== undefined) state.host = options.host;
  if (options.labels !== undefined) state.labels = options.labels;
  return state;
}
