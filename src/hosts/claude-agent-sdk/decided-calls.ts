import type { GuardSession } from "../../guard/types.js";

/**
 * Tool-use ids already decided (PreToolUse hook) or already recorded as denied, per session, so the canUseTool
 * wrapper, the hooks and `observe` never count one call twice. Bounded per session.
 */
const decided = new WeakMap<GuardSession, Set<string>>();
const denied = new WeakMap<GuardSession, Set<string>>();
const LIMIT = 4096;

function setFor(map: WeakMap<GuardSession, Set<string>>, session: GuardSession): Set<string> {
  let set = map.get(session);
  if (set === undefined) {
    set = new Set();
    map.set(session, set);
  }
  return set;
}

function add(set: Set<string>, id: string): void {
  set.add(id);
  if (set.size > LIMIT) set.delete(set.values().next().value as string);
}

export const markDecided = (session: GuardSession, toolUseId: string) => add(setFor(decided, session), toolUseId);
export const wasDecided = (session: GuardSession, toolUseId: string) => setFor(decided, session).has(toolUseId);
export const markDenied = (session: GuardSession, toolUseId: string) => add(setFor(denied, session), toolUseId);
export const wasDenied = (session: GuardSession, toolUseId: string) => setFor(denied, session).has(toolUseId);
