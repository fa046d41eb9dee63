import type { CompiledRule } from "../compile-rule.js";

/**
 * Path rules indexed by their literal directory (`pathPrefix`), so a path is tested only against the rules whose
 * directory it is in, not against every rule. A rule with prefix `P` can only match `P` itself or a path below
 * it (`P/...`): its glob is `P/` and more, and a match starts with the glob's literal text (the prefilter
 * `compilePathSpecifier` applies). So for a path, only its own directory prefixes of the lengths some rule has are
 * looked up. Rules without a usable prefix are candidates for every path.
 */
export interface PathRuleIndex {
  readonly rules: readonly CompiledRule[];
  /** the prefix lengths some rule has, ascending (none of them 0) */
  readonly lengths: readonly number[];
  /** positions in `rules`, ascending, by the hash of their prefix (`prefixHash`; rules of colliding prefixes share one) */
  readonly byPrefixHash: ReadonlyMap<number, readonly number[]>;
  /** positions of the rules without a usable prefix, ascending: candidates for every path */
  readonly everywhere: readonly number[];
}

const SLASH = 47;
const FNV_OFFSET = 2166136261 | 0;
const FNV_PRIME = 16777619;
/** a hash kept to 30 bits: a small integer, so the map's keys are never boxed numbers */
const SMALL = 0x3fffffff;

/** FNV-1a over a prefix's characters, as `candidatePathRules` computes it along a path */
function prefixHash(prefix: string): number {
  let hash = FNV_OFFSET;
  for (let index = 0; index < prefix.length; index++) hash = Math.imul(hash ^ prefix.charCodeAt(index), FNV_PRIME);
  return hash & SMALL;
}

export function indexPathRules(rules: readonly CompiledRule[]): PathRuleIndex {
  const byPrefixHash = new Map<number, number[]>();
  const everywhere: number[] = [];
  const lengths: number[] = [];
  rules.forEach((rule, position) => {
    const prefix = rule.pathPrefix;
    // a prefix that is not a directory (`/a`, `/a/b`; no trailing or doubled slash) indexes nothing
    const usable =
      prefix !== undefined &&
      prefix.charCodeAt(0) === SLASH &&
      prefix.charCodeAt(prefix.length - 1) !== SLASH &&
      !prefix.includes("//");
    if (!usable) {
      everywhere.push(position);
      return;
    }
    const key = prefixHash(prefix);
    const list = byPrefixHash.get(key);
    if (list === undefined) byPrefixHash.set(key, [position]);
    else list.push(position);
    if (!lengths.includes(prefix.length)) lengths.push(prefix.length);
  });
  lengths.sort((a, b) => a - b);
  return { rules, lengths, byPrefixHash, everywhere };
}

/**
 * The positions of the rules that may match a path, written by `candidatePathRules` from index 0 (its return value
 * says how many): one array for every call, since an array grown by `push` from empty allocates room for 16 entries
 * (about 150 bytes a call), and a length set back to 0 lets its room go. Only `matchingPathRules` reads it, before it
 * returns, and nothing it calls comes back here.
 */
const candidates: number[] = [];

/**
 * Writes to `candidates` the positions of the rules that may match `path` (the rules whose directory holds it, and
 * any whose prefix hashes alike): a superset of the rules whose test accepts it, in no particular order, possibly with
 * repeats; returns how many. The path's prefixes are hashed in one pass along it, with no slice of it made: a slice of
 * 13 characters or more is a view on the path, and hashing one and comparing it with a map's key costs about 100 ns
 * (Node 20), where a lookup by a small integer costs a few.
 */
function candidatePathRules(index: PathRuleIndex, path: string): number {
  const { lengths, byPrefixHash, everywhere } = index;
  let count = 0;
  for (const position of everywhere) candidates[count++] = position;
  const length = path.length;
  let hash = FNV_OFFSET;
  let at = 0;
  for (const prefixLength of lengths) {
    if (prefixLength > length) break;
    for (; at < prefixLength; at++) hash = Math.imul(hash ^ path.charCodeAt(at), FNV_PRIME);
    if (prefixLength === length || path.charCodeAt(prefixLength) === SLASH) {
      const found = byPrefixHash.get(hash & SMALL);
      if (found !== undefined) for (const position of found) candidates[count++] = position;
    }
  }
  return count;
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);

/** The rules of `index` whose test accepts `path`, in rule order (one shared empty list when none does). */
export function matchingPathRules(index: PathRuleIndex, path: string): readonly CompiledRule[] {
  const count = candidatePathRules(index, path);
  if (count === 0) return NO_RULES;
  // in rule order: an insertion sort of the few candidates
  for (let next = 1; next < count; next++) {
    const position = candidates[next] as number;
    let at = next - 1;
    while (at >= 0 && (candidates[at] as number) > position) {
      candidates[at + 1] = candidates[at] as number;
      at--;
    }
    candidates[at + 1] = position;
  }
  let found: CompiledRule[] | undefined;
  let previous = -1;
  for (let at = 0; at < count; at++) {
    const position = candidates[at] as number;
    // a rule found twice (its prefix's hash equals that of another prefix of the path) is tested once
    if (position === previous) continue;
    previous = position;
    const rule = index.rules[position] as CompiledRule;
    if (!rule.test(path)) continue;
    if (found === undefined) found = [rule];
    else found.push(rule);
  }
  return found ?? NO_RULES;
}
