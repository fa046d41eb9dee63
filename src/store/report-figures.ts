import { type Figures, type SessionFacts, sessionFigures, totalFigures } from "../core/figures.js";
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
  const sessions = facts.map(sessionFigures);
  const aborts = new Map(
    facts.map((session) => [session.sessionId, session.events.filter((event) => event.kind === "run.aborted").length]),
  );
  const incidents = sessions
    .filter((session) => session.status !== "clean")
    .map((session) => ({
      sessionId: session.sessionId,
      loops: session.loops.length,
      aborts: aborts.get(session.sessionId) ?? 0,
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
