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
  /** the prefix lengths some rule has, ascending (0 for the rules tested on every path) */
  readonly lengths: readonly number[];
  /** positions in `rules`, ascending, by prefix */
  readonly byPrefix: ReadonlyMap<string, readonly number[]>;
}

const SLASH = 47;

export function indexPathRules(rules: readonly CompiledRule[]): PathRuleIndex {
  const byPrefix = new Map<string, number[]>();
  rules.forEach((rule, position) => {
    const prefix = rule.pathPrefix;
    // a prefix that is not a directory (`/a`, `/a/b`; no trailing or doubled slash) indexes nothing
    const usable =
      prefix !== undefined &&
      prefix.charCodeAt(0) === SLASH &&
      prefix.charCodeAt(prefix.length - 1) !== SLASH &&
      !prefix.includes("//");
    const key = usable ? prefix : "";
    const list = byPrefix.get(key);
    if (list === undefined) byPrefix.set(key, [position]);
    else list.push(position);
  });
  const lengths = [...byPrefix.keys()]
    .map((prefix) => prefix.length)
    .filter((length, i, all) => all.indexOf(length) === i);
  lengths.sort((a, b) => a - b);
  return { rules, lengths, byPrefix };
}

/**
 * Appends to `positions` the positions of the rules that may match `path` (the rules whose directory holds it):
 * a superset of the rules whose test accepts it, in no particular order, possibly with repeats across calls.
 */
function candidatePathRules(index: PathRuleIndex, path: string, positions: number[]): void {
  const { lengths, byPrefix } = index;
  const length = path.length;
  for (const prefixLength of lengths) {
    if (prefixLength > length) return;
    let found: readonly number[] | undefined;
    if (prefixLength === 0) found = byPrefix.get("");
    else if (prefixLength === length) found = byPrefix.get(path);
    else if (path.charCodeAt(prefixLength) === SLASH) found = byPrefix.get(path.slice(0, prefixLength));
    if (found !== undefined) for (const position of found) positions.push(position);
  }
}

const NO_RULES: readonly CompiledRule[] = Object.freeze([]);

/** The rules of `index` whose test accepts `path`, in rule order (one shared empty list when none does). */
export function matchingPathRules(index: PathRuleIndex, path: string): readonly CompiledRule[] {
  const positions: number[] = [];
  candidatePathRules(index, path, positions);
  if (positions.length === 0) return NO_RULES;
  if (positions.length > 1) positions.sort((a, b) => a - b);
  let found: CompiledRule[] | undefined;
  for (const position of positions) {
    const rule = index.rules[position] as CompiledRule;
    if (!rule.test(path)) continue;
    if (found === undefined) found = [rule];
    else found.push(rule);
  }
  return found ?? NO_RULES;
}
