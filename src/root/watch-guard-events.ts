import type { ToolCall } from "../core/events.js";
import type { Guard } from "../guard/create-guard.js";
import type { DecideResult, GuardSession, GuardSessionOptions } from "../guard/types.js";

/** What a process did with its guard: whether it gated a call, handled other events, and which sessions it opened. */
export interface GuardActivity {
  /** a decision (PreToolUse): the hot path */
  gating: boolean;
  /**
   * an event that only observes (PostToolUse, UserPromptSubmit, Stop, SessionEnd, ...). A denial alone is neither:
   * PermissionRequest and PermissionDenied report one and answer at once, while Stop reports the denials its
   * transcript shows besides ending the turn
   */
  other: boolean;
  /**
   * the session ended (SessionEnd, or a host's equivalent): the last event a session is sure to send, so the time to
   * drain what it spooled. A turn's end (Stop) is not one: it comes every turn, and draining there loads the native
   * SQLite module (or connects to Postgres) in a process the agent waits for, every turn
   */
  boundary: boolean;
  sessions: Map<string, GuardSessionOptions>;
}

const GATING = new Set<keyof GuardSession>(["decide"]);
const NEUTRAL = new Set<keyof GuardSession>(["denied", "deniedUnlessRecorded", "state", "recordedCallIds"]);
const BOUNDARY = new Set<keyof GuardSession>(["end"]);

/**
 * The same guard, noting in `activity` which kind of event this process handled, so the composition root can
 * drain the spool after non-gating events only (a gating event's process never opens the database).
 */
export function watchGuardEvents(
  guard: Guard,
  options: {
    activity: GuardActivity;
    /** after each `decide` of a session, with its call and result (never throws into the caller) */
    afterDecide?: (sessionId: string, call: ToolCall, result: DecideResult) => void;
  },
): Guard {
  const { activity, afterDecide } = options;
  return {
    config: guard.config,
    drain: () => guard.drain(),
    session(sessionId, sessionOptions) {
      activity.sessions.set(sessionId, sessionOptions);
      const session = guard.session(sessionId, sessionOptions);
      const observed: Record<string, unknown> = {};
      for (const [key, value] of Object.entries(session)) {
        if (typeof value !== "function") {
          observed[key] = value;
          continue;
        }
        const name = key as keyof GuardSession;
        observed[key] = (...args: unknown[]) => {
          if (GATING.has(name)) activity.gating = true;
          else if (!NEUTRAL.has(name)) activity.other = true;
          if (BOUNDARY.has(name)) activity.boundary = true;
          const result = (value as (...args: unknown[]) => unknown)(...args);
          if (name !== "decide" || afterDecide === undefined) return result;
          return (result as Promise<DecideResult>).then((decided) => {
            try {
              afterDecide(sessionId, args[0] as ToolCall, decided);
            } catch {
              // observing never changes the answer
            }
            return decided;
          });
        };
      }
      return observed as unknown as GuardSession;
    },
  };
}
