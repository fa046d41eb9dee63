import { type Figures, type SessionFacts, type SessionStatus, sessionFigures, totalFigures } from "../core/figures.js";
import type { SessionIncident } from "./ports.js";

/**
 * The report's figures and incident list from each session's facts (core/figures.ts): every store, the dashboard
 * and the saved report file count loops, waste and status this one way. Incidents are the sessions whose status
 * is not clean, most loops and aborts first, ties by session id in byte order.
 */
export function reportFigures(
  facts: readonly SessionFacts[],
  options: { top: number },
): { figures: Figures; incidents: SessionIncident[] } {
  return figuresOfSessions(facts.map(countSession), options);
}

/** one session's figures from its facts, its loops counted */
export function countSession(facts: SessionFacts): CountedSession {
  const figures = sessionFigures(facts);
  return {
    ...figures,
    loops: figures.loops.length,
    aborts: facts.events.filter((event) => event.kind === "run.aborted").length,
  };
}

/** one session's figures with its loops counted, as a store's per-session summary gives them */
export interface CountedSession {
  sessionId: string;
  denials: number;
  loops: number;
  aborts: number;
  wastedCalls: number;
  wastedTokens: number | null;
  savedCalls: number;
  status: SessionStatus;
}

/** reportFigures from each session's figures (computed from its facts, or read from a per-session summary) */
export function figuresOfSessions(
  sessions: readonly CountedSession[],
  options: { top: number },
): { figures: Figures; incidents: SessionIncident[] } {
  const incidents = sessions
    .filter((session) => session.status !== "clean")
    .map((session) => ({
      sessionId: session.sessionId,
      loops: session.loops,
      aborts: session.aborts,
      denials: session.denials,
      status: session.status,
    }))
    .sort(
      (a, b) =>
        b.loops + b.aborts - (a.loops + a.aborts) ||
        (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0),
    )
    .slice(0, options.top);
  return { figures: totalFigures(sessions), incidents };
}
