import type { DenialRecord } from "./records.js";
import type { SessionState } from "./state.js";

/**
 * The records added after the high-water mark `since` (a past value of `state.total`), oldest first. Uses the
 * monotonic total, not the retained length: when eviction removed unseen records it returns the retained tail
 * (callers treat the count as a lower bound); when `since` is at or beyond the total it returns nothing.
 * Same contract as agent-code's `records_since`.
 */
export function recordsSince(state: Pick<SessionState, "records" | "total">, since: number): DenialRecord[] {
  const fresh = state.total - Math.max(0, since);
  if (fresh <= 0) return [];
  const count = Math.min(fresh, state.records.length);
  return state.records.slice(state.records.length - count);
}

/** How many records after `since` were evicted before anyone read them. */
export function recordsLostSince(state: Pick<SessionState, "records" | "total">, since: number): number {
  const fresh = state.total - Math.max(0, since);
  return Math.max(0, fresh - state.records.length);
}
