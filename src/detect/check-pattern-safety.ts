/**
 * Decides whether an extension redaction pattern from config is safe to run on untrusted text in a backtracking
 * engine. Conservative: a pattern must start with a fixed prefix of at least 3 characters (`acme_`, so it is only
 * tried where that prefix occurs), may not use backreferences, lookbehind, alternatives outside a group, nested
 * quantifiers (`(a+)+`) or unbounded quantifiers (`*`, `+`, `{n,}`: write `{1,64}`), may match at most 512
 * characters, and may use only the flags `i`, `m`, `s`, `u`. Accepted patterns do a small, bounded amount of work at
 * each occurrence of their prefix.
 */

export type PatternSafety = { safe: true; prefix: string } | { safe: false; reason: string };

const MAX_SOURCE = 1000;
const MAX_RANGE = 4096;
/** the product of (max - min + 1) over all variable-length quantifiers */
const MAX_RANGE_PRODUCT = 4096;
const MAX_MATCH_LENGTH = 512;
const MIN_PREFIX = 3;
const LITERAL = /[A-Za-z0-9_\-:=@#%&'"<>,;/~` !]/;
const ESCAPED_LITERAL = /[.\-/\\_:=@#%&'"<>,;~`!*+?()[\]{}|^$]/;

/** The fixed text every match starts with (after leading group openers and `^`/`\b`); "" when there is none. */
function literalPrefix(source: string): { prefix: string; depth: number } {
  let index = 0;
  let depth = 0;
  for (;;) {
    const opener = /^(?:\^|\\b|\((?:\?:|\?<[A-Za-z_$][\w$]*>)?)/.exec(source.slice(index, index + 80));
    if (opener === null) break;
    if (opener[0].startsWith("(")) depth += 1;
    index += opener[0].length;
  }
  let prefix = "";
  while (index < source.length) {
    const char = source[index] as string;
    let literal: string | undefined;
    let width = 1;
    if (char === "\\" && ESCAPED_LITERAL.test(source[index + 1] ?? "")) {
      literal = source[index + 1];
      width = 2;
    } else if (LITERAL.test(char)) {
      literal = char;
    }
    if (literal === undefined) break;
    // a literal followed by a quantifier is not fixed
    if (/[?*+{]/.test(source[index + width] ?? "")) break;
    prefix += literal;
    index += width;
  }
  return { prefix, depth };
}

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
  const { prefix, depth: prefixDepth } = literalPrefix(source);
  if (prefix.length < MIN_PREFIX) {
    return {
      safe: false,
      reason: `the pattern must start with a fixed prefix of at least ${MIN_PREFIX} characters (such as acme_), so it only runs where that prefix occurs`,
    };
  }
  let matchLength = 0;
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
      if (stack.length - 1 <= prefixDepth) {
        return {
          safe: false,
          reason: "alternatives (|) must sit inside a group after the fixed prefix; write one pattern per alternative",
        };
      }
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
    if (quantifier === undefined) {
      if (lastAtom === "single") matchLength += 1;
      continue;
    }
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
    matchLength += quantifier.max;
    if (matchLength > MAX_MATCH_LENGTH) {
      return {
        safe: false,
        reason: `the longest possible match is over ${MAX_MATCH_LENGTH} characters; lower the bounds`,
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
  return { safe: true, prefix };
}
