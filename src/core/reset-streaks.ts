import type { AgentState } from "./state.js";

/** An allowed or successful call of `tool` (or a grant for it) ends its streaks; totals stay. */
export function resetToolStreaks(agent: AgentState, tool: string): void {
  const counters = agent.tools[tool];
  if (counters === undefined || (counters.consecutive === 0 && counters.streaking.length === 0)) return;
  for (const key of counters.streaking) {
    const pattern = agent.patterns[key];
    if (pattern !== undefined) {
      agent.patterns[key] = { ...pattern, streak: 0, escalated: false, ungrantable: false, recent: [] };
    }
  }
  agent.tools[tool] = { ...counters, consecutive: 0, streaking: [] };
}
