/**
 * Decides whether an extension redaction pattern from config is safe to run on untrusted text in a backtracking
 * engine. Conservative: it rejects backreferences, lookbehind, nested quantifiers (`(a+)+`), unbounded quantifiers
 * (`*`, `+`, `{n,}`: write `{0,64}` instead), quantified groups with alternatives whose ranges multiply past a budget,
 * and flags other than `i`, `m`, `s`, `u`. Accepted patterns do at most a constant amount of work per input position.
 */

export type PatternSafety = { safe: true } | { safe: false; reason: string };

const MAX_SOURCE = 1000;
const MAX_RANGE = 4096;
/** the product of (max - min + 1) over all variable-length quantifiers */
const MAX_RANGE_PRODUCT = 1 << 16;
const ALLOWED_FLAGS = /^[imsu]*$/;

interface Frame {
  /** the group contains a quantifier */
  quantified: boolean;
  /** the group contains an alternation */
  alternation: boolean;
}

/** Parses `{n}`, `{n,}`, `{n,m}` at `index`; returns undefined if the brace is a literal. */
function braceQuantifier(
  source: string,
  index: number,
): { min: number; max: number | undefined; length: number } | undefined {
  const match = /^\{(\d{1,6})(?:(,)(\d{1,6})?)?\}/.exec(source.slice(index, index + 16));
  if (match === null) return undefined;
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : match[3] === undefined ? undefined : Number(match[3]);
  return { min, max, length: match[0].length };
}

export function checkPatternSafety(source: string, flags = ""): PatternSafety {
  if (source.length === 0) return { safe: false, reason: "the pattern is empty" };
  if (source.length > MAX_SOURCE) return { safe: false, reason: `the pattern is longer than ${MAX_SOURCE} characters` };
  if (!ALLOWED_FLAGS.test(flags) || new Set(flags).size !== flags.length) {
    return { safe: false, reason: `flags "${flags}" are not allowed; use any of i, m, s, u` };
  }
  try {
    new RegExp(source, flags);
  } catch (error) {
    return { safe: false, reason: `the pattern does not compile: ${(error as Error).message}` };
  }
  const stack: Frame[] = [{ quantified: false, alternation: false }];
  /** the last atom: a group's frame, or a single character/class */
  let lastAtom: Frame | "single" | undefined;
  let product = 1;
  let inClass = false;
  for (let index = 0; index < source.length; index += 1) {
    const char = source[index];
    if (char === "\\") {
      const next = source[index + 1] ?? "";
      if (!inClass && /[1-9k]/.test(next)) return { safe: false, reason: "backreferences are not allowed" };
      index += 1;
      if (!inClass) lastAtom = "single";
      continue;
    }
    if (inClass) {
      if (char === "]") inClass = false;
      continue;
    }
    const top = stack[stack.length - 1] as Frame;
    let quantifier: { min: number; max: number | undefined; length: number } | undefined;
    if (char === "[") {
      inClass = true;
      lastAtom = "single";
    } else if (char === "(") {
      if (source.startsWith("(?<=", index) || source.startsWith("(?<!", index)) {
        return { safe: false, reason: "lookbehind is not allowed" };
      }
      stack.push({ quantified: false, alternation: false });
      lastAtom = undefined;
      // skip the group's opener: (?: (?= (?! (?<name>
      const opener = /^\(\?(?::|=|!|<[A-Za-z_$][\w$]*>)/.exec(source.slice(index, index + 80));
      if (opener !== null) index += opener[0].length - 1;
    } else if (char === ")") {
      const closed = stack.pop();
      if (closed === undefined || stack.length === 0) return { safe: false, reason: "unbalanced parentheses" };
      const parent = stack[stack.length - 1] as Frame;
      parent.quantified ||= closed.quantified;
      lastAtom = closed;
    } else if (char === "|") {
      top.alternation = true;
      lastAtom = undefined;
    } else if (char === "*" || char === "+") {
      quantifier = { min: char === "+" ? 1 : 0, max: undefined, length: 1 };
    } else if (char === "?") {
      quantifier = { min: 0, max: 1, length: 1 };
    } else if (char === "{") {
      quantifier = braceQuantifier(source, index);
      if (quantifier === undefined) lastAtom = "single";
    } else {
      lastAtom = "single";
    }
    if (quantifier === undefined) continue;
    if (lastAtom === undefined) return { safe: false, reason: "a quantifier follows nothing" };
    if (quantifier.max === undefined) {
      return { safe: false, reason: "unbounded quantifiers (*, +, {n,}) are not allowed; use a bound such as {1,64}" };
    }
    if (quantifier.max > MAX_RANGE)
      return { safe: false, reason: `quantifier bounds above ${MAX_RANGE} are not allowed` };
    if (lastAtom !== "single" && (lastAtom.quantified || lastAtom.alternation) && quantifier.max > 1) {
      return {
        safe: false,
        reason: "a repeated group may not contain quantifiers or alternatives (nested quantifiers)",
      };
    }
    product *= quantifier.max - quantifier.min + 1;
    if (product > MAX_RANGE_PRODUCT) {
      return { safe: false, reason: "too many variable-length quantifiers; fix lengths or narrow the ranges" };
    }
    top.quantified = true;
    index += quantifier.length - 1;
    // a lazy marker after a quantifier
    if (source[index + 1] === "?") index += 1;
    lastAtom = undefined;
  }
  if (stack.length !== 1) return { safe: false, reason: "unbalanced parentheses" };
  return { safe: true };
}
