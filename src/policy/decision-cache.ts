import type { PolicyDecision } from "./policy-types.js";
import { commandOf, pathOf, type RuleFamily, urlOf } from "./tool-families.js";

const LIMIT = 2048;

export interface DecisionCache {
  /**
   * The cached decision, or undefined. `tool` is the canonical tool, `variant` a small number for the mode and the
   * session kind, `subject` the call's command, path or URL.
   */
  get(tool: string, variant: number, subject: string): PolicyDecision | undefined;
  set(tool: string, variant: number, subject: string, decision: PolicyDecision): PolicyDecision;
}

/** The one input field a cacheable call's decision depends on (command, path or URL), or undefined. */
export function cacheSubject(family: RuleFamily, input: unknown): string | undefined {
  if (family === "shell") return commandOf(input);
  if (family === "read" || family === "edit") return pathOf(input) ?? "";
  if (family === "web") return urlOf(input);
  return undefined;
}

/**
 * Remembers decisions for calls whose outcome depends only on the tool, one input field, the mode and the session
 * kind: shell commands, file paths and URLs, when no session grant and no parameter rule is involved.
 * Agents repeat calls, so the hot path then costs two Map lookups. Bounded (oldest entries go first); decisions
 * are frozen because they are shared.
 */
export function createDecisionCache(): DecisionCache {
  const scopes = new Map<string, Map<number, Map<string, PolicyDecision>>>();
  /** insertion order as a ring buffer (two parallel arrays: no allocation per entry): slot `next` holds the oldest */
  const orderMaps: (Map<string, PolicyDecision> | undefined)[] = new Array(LIMIT).fill(undefined);
  const orderSubjects: string[] = new Array(LIMIT).fill("");
  let next = 0;
  return {
    get: (tool, variant, subject) => scopes.get(tool)?.get(variant)?.get(subject),
    set(tool, variant, subject, decision) {
      let variants = scopes.get(tool);
      if (variants === undefined) {
        variants = new Map();
        scopes.set(tool, variants);
      }
      let entries = variants.get(variant);
      if (entries === undefined) {
        entries = new Map();
        variants.set(variant, entries);
      }
      const frozen = Object.freeze(decision);
      if (!entries.has(subject)) {
        orderMaps[next]?.delete(orderSubjects[next] as string);
        orderMaps[next] = entries;
        orderSubjects[next] = subject;
        next = (next + 1) % LIMIT;
      }
      entries.set(subject, frozen);
      return frozen;
    },
  };
}
