import type { PolicyDecision } from "./policy-types.js";
import { commandOf, pathOf, type RuleFamily, urlOf } from "./tool-families.js";

/** sets of the cache (a power of two); each holds two entries, so at most 4,096 decisions are kept */
const SETS = 2048;
/** characters of a subject's beginning and end that go into its hash (a longer subject's middle is skipped) */
const HASHED_EDGE = 4096;
/** slots of the doorkeeper that notes calls seen once (a power of two) */
const DOORKEEPER = 8192;

export interface DecisionCache {
  /**
   * The cached decision, or undefined. `tool` is the canonical tool, `variant` a small number for the mode and the
   * session kind, `subject` the call's command, path or URL.
   */
  get(tool: string, variant: number, subject: string): PolicyDecision | undefined;
  set(tool: string, variant: number, subject: string, decision: PolicyDecision): PolicyDecision;
  /**
   * `set` for a decision that is frozen already (a shared one, frozen once when it was built): not frozen again,
   * since even freezing a frozen object costs a call into the runtime on every first-seen call.
   */
  keep(tool: string, variant: number, subject: string, frozen: Readonly<PolicyDecision>): PolicyDecision;
}

/** The one input field a cacheable call's decision depends on (command, path or URL), or undefined. */
export function cacheSubject(family: RuleFamily, input: unknown): string | undefined {
  if (family === "shell") return commandOf(input);
  if (family === "read" || family === "edit") return pathOf(input) ?? "";
  if (family === "web") return urlOf(input);
  return undefined;
}

/**
 * A 32-bit hash of the tool, the variant and the subject (all of a subject up to 8,192 characters, less than its
 * evaluation reads; of a longer one its length, its first and its last 4,096). Only picks a set and a doorkeeper
 * slot: entries are compared in full.
 */
function hashOf(tool: string, variant: number, subject: string): number {
  let hash = Math.imul(2166136261 ^ variant, 16777619);
  for (let index = 0; index < tool.length; index++) hash = Math.imul(hash ^ tool.charCodeAt(index), 16777619);
  const length = subject.length;
  hash = Math.imul(hash ^ length, 16777619);
  if (length <= 2 * HASHED_EDGE) {
    for (let index = 0; index < length; index++) hash = Math.imul(hash ^ subject.charCodeAt(index), 16777619);
  } else {
    for (let index = 0; index < HASHED_EDGE; index++) hash = Math.imul(hash ^ subject.charCodeAt(index), 16777619);
    for (let index = length - HASHED_EDGE; index < length; index++) {
      hash = Math.imul(hash ^ subject.charCodeAt(index), 16777619);
    }
  }
  // murmur3's finaliser: every bit of the state reaches the low bits the set and the doorkeeper slots are taken from
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/**
 * Remembers decisions for calls whose outcome depends only on the tool, one input field, the mode and the session
 * kind: shell commands, file paths and URLs, when no session grant and no parameter rule is involved.
 * Agents repeat calls, so the hot path then costs one hash of the subject and a comparison or two.
 * - A two-way set-associative table in parallel arrays (no Map, no allocation per entry, nothing to delete): a new
 *   entry takes its set's first way and moves the one there to the second, dropping the older of the two. Bounded
 *   (4,096 entries).
 * - A decision is stored the second time its call is seen: the first time only the call's hash is noted (a
 *   doorkeeper of 8,192 numbers, two slots per call). A call seen once, most calls of a long session, then leaves no decision to keep
 *   alive (kept decisions outlive the young generation and cost the garbage collector more than the lookup saves);
 *   a repeated call is decided twice, then found.
 * Decisions are frozen (whether stored or not) because they may be shared.
 */
export function createDecisionCache(): DecisionCache {
  const ways = 2 * SETS;
  const tools: string[] = new Array(ways).fill("");
  const variants: number[] = new Array(ways).fill(-1);
  const subjects: string[] = new Array(ways).fill("");
  const decisions: (PolicyDecision | undefined)[] = new Array(ways).fill(undefined);
  /** each way's hash: compared before the subject, so a different subject of the same length is not read */
  const hashes = new Int32Array(ways);
  const seen = new Int32Array(DOORKEEPER);
  const matches = (way: number, full: number, tool: string, variant: number, subject: string): boolean =>
    hashes[way] === full && variants[way] === variant && subjects[way] === subject && tools[way] === tool;
  /** the last lookup's hash, reused by the `set` of the same entry that follows a miss (one hash per new call) */
  let lastTool = "";
  let lastVariant = -1;
  let lastSubject = "";
  let lastHash = 0;
  const hash = (tool: string, variant: number, subject: string): number => {
    if (subject === lastSubject && tool === lastTool && variant === lastVariant) return lastHash;
    lastTool = tool;
    lastVariant = variant;
    lastSubject = subject;
    lastHash = hashOf(tool, variant, subject);
    return lastHash;
  };
  const keep = (tool: string, variant: number, subject: string, frozen: PolicyDecision): PolicyDecision => {
    const full = hash(tool, variant, subject);
    // the doorkeeper notes a call in two slots (two calls sharing one slot would otherwise keep each other out);
    // zero marks an empty slot, so a hash of zero is noted as one
    const slot = (full >>> 11) & (DOORKEEPER - 1);
    const other = ((full >>> 24) | (full << 8)) & (DOORKEEPER - 1);
    const mark = full === 0 ? 1 : full;
    if (seen[slot] !== mark && seen[other] !== mark) {
      seen[slot] = mark;
      seen[other] = mark;
      return frozen;
    }
    const first = 2 * (full & (SETS - 1));
    if (matches(first + 1, full, tool, variant, subject)) {
      decisions[first + 1] = frozen;
      return frozen;
    }
    if (!matches(first, full, tool, variant, subject)) {
      hashes[first + 1] = hashes[first] as number;
      hashes[first] = full;
      tools[first + 1] = tools[first] as string;
      variants[first + 1] = variants[first] as number;
      subjects[first + 1] = subjects[first] as string;
      decisions[first + 1] = decisions[first];
      tools[first] = tool;
      variants[first] = variant;
      subjects[first] = subject;
    }
    decisions[first] = frozen;
    return frozen;
  };
  return {
    get(tool, variant, subject) {
      const full = hash(tool, variant, subject);
      const first = 2 * (full & (SETS - 1));
      if (matches(first, full, tool, variant, subject)) return decisions[first];
      if (matches(first + 1, full, tool, variant, subject)) return decisions[first + 1];
      return undefined;
    },
    set(tool, variant, subject, decision) {
      return keep(tool, variant, subject, Object.freeze(decision));
    },
    keep,
  };
}
