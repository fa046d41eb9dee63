import type { Behavior } from "../core/decision.js";

/** The fields precedence looks at. */
export interface Ranked {
  behavior: Behavior;
  priority: number;
  /** position in the rule list; the earlier rule wins a full tie */
  order?: number;
}

const BEHAVIOR_RANK: Record<Behavior, number> = { deny: 3, ask: 2, allow: 1 };

/**
 * THE precedence function (house invariant 6). Among the rules that match a call:
 * 1. the highest `priority` wins (Claude-style rules all have priority 0; a host importer expresses its own order
 *    through priorities: rising with position where the host's last match wins, tier + priority/1000 where the host
 *    ranks by tiers);
 * 2. at equal priority, deny beats ask beats allow (Claude Code: "deny, then ask, then allow; specificity does
 *    not matter");
 * 3. at equal priority and behavior, the first rule in the list wins (its `rule` is reported).
 * Returns undefined when nothing matched.
 */
export function pickWinningRule<T extends Ranked>(matches: readonly T[]): T | undefined {
  let winner: T | undefined;
  for (const candidate of matches) {
    if (winner === undefined || outranks(candidate, winner)) winner = candidate;
  }
  return winner;
}

/**
 * One step of `pickWinningRule`: the winner among `winner`'s rules and `candidate` (for a caller that finds the
 * matching rules one at a time and keeps no list of them).
 */
export function preferredRule<T extends Ranked>(winner: T | undefined, candidate: T): T {
  return winner === undefined || outranks(candidate, winner) ? candidate : winner;
}

function outranks(candidate: Ranked, current: Ranked): boolean {
  if (candidate.priority !== current.priority) return candidate.priority > current.priority;
  if (candidate.behavior !== current.behavior)
    return BEHAVIOR_RANK[candidate.behavior] > BEHAVIOR_RANK[current.behavior];
  return (candidate.order ?? 0) < (current.order ?? 0);
}

/** Combines per-part outcomes (subcommands of one shell command): any deny, else any ask, else allow. */
export function combineParts(behaviors: readonly (Behavior | undefined)[]): Behavior | undefined {
  let result: Behavior | undefined = "allow";
  for (const behavior of behaviors) {
    if (behavior === "deny") return "deny";
    if (behavior === "ask") result = "ask";
    else if (behavior === undefined && result === "allow") result = undefined;
  }
  return result;
}
