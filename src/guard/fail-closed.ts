import type { Decision } from "../core/decision.js";

/**
 * The one place an internal error becomes a decision: always a deny (house invariant 2), with a reason that says so.
 * Callers also report the error through the guard's `onError`.
 */
export function failClosed(error: unknown, where: string): Decision {
  const message = error instanceof Error ? error.message : String(error);
  return {
    behavior: "deny",
    source: "toolgate",
    reason: `toolgate could not evaluate this call (${where}: ${message}); denied to fail closed. Check toolgate's log.`,
  };
}
