import { audit } from "./audit-event.js";
import { addCallTokens, wastedTokensOf } from "./call-tokens.js";
import type { FlushEffect } from "./effects.js";
import type { SessionEndedEvent, TurnEndedEvent, TurnStartedEvent } from "./events.js";
import { recordsLostSince, recordsSince } from "./records-since.js";
import { describeSession } from "./session-info.js";
import type { AgentState } from "./state.js";
import type { StepContext } from "./step-context.js";

/** A real user message: per-turn and consecutive counters restart; session totals, grants and records stay. */
export function onTurnStarted(context: StepContext, event: TurnStartedEvent): void {
  const { state } = context;
  state.turn += 1;
  const agents: Record<string, AgentState> = {};
  // each object built field by field (no spreads of counters, no `delete`: a deleted property leaves the agent's
  // object in dictionary mode, slow on every denial of the turn)
  for (const [id, agent] of Object.entries(state.agents)) {
    const tools: AgentState["tools"] = {};
    for (const [tool, counters] of Object.entries(agent.tools)) {
      tools[tool] = { consecutive: 0, streaking: [], total: counters.total, turnTotal: 0 };
    }
    const patterns: AgentState["patterns"] = {};
    for (const [key, pattern] of Object.entries(agent.patterns)) {
      patterns[key] = {
        tool: pattern.tool,
        pattern: pattern.pattern,
        streak: 0,
        total: pattern.total,
        lastSource: pattern.lastSource,
        ungrantable: false,
        recent: [],
        escalated: false,
      };
    }
    agents[id] = {
      total: agent.total,
      turnTotal: 0,
      consecutive: 0,
      tools,
      patterns,
      window: [],
      runs: [],
      loopLevels: {},
    };
  }
  state.agents = agents;
  context.copiedAgents = Object.keys(agents);
  const { nudge } = state;
  // fixed shapes, not a spread (nudge.ts)
  state.nudge =
    nudge.lastNudgeAt === undefined
      ? { count: 0, os: false, recent: nudge.recent }
      : { count: 0, os: false, lastNudgeAt: nudge.lastNudgeAt, recent: nudge.recent };
  describeSession(context, event);
}

/** Per-turn batch for per-denial hooks: every record since the high-water mark, then the mark moves. */
export function flush(context: StepContext, reason: FlushEffect["reason"]): void {
  const { state } = context;
  const records = recordsSince(state, state.highWaterMark);
  const lost = recordsLostSince(state, state.highWaterMark);
  if (records.length === 0 && lost === 0) return;
  state.highWaterMark = state.total;
  context.effects.push({ type: "flush", reason, records, lost, highWaterMark: state.total });
}

export function onTurnEnded(context: StepContext, event: TurnEndedEvent): void {
  addCallTokens(context, event.callTokens);
  const reason =
    event.outcome === "error" ? "turn-error" : event.outcome === "cancelled" ? "turn-cancelled" : "turn-ended";
  flush(context, reason);
}

export function onSessionEnded(context: StepContext, event: SessionEndedEvent): void {
  addCallTokens(context, event.callTokens);
  flush(context, "session-ended");
  const wastedTokens = wastedTokensOf(context);
  const tools: Record<string, number> = {};
  for (const agent of Object.values(context.state.agents)) {
    for (const [tool, counters] of Object.entries(agent.tools)) tools[tool] = (tools[tool] ?? 0) + counters.total;
  }
  context.effects.push(
    audit(context, {
      kind: "session.summary",
      event,
      detail: {
        permissionDenialCount: context.state.total,
        permissionDeniedTools: tools,
        aborted: context.state.aborted ?? null,
        grants: context.state.grants.length,
        // only once the host named tokens (a transcript with usage): calls stay counted from the denials
        ...(wastedTokens === undefined ? {} : { wastedTokens }),
      },
    }),
  );
}
