import { compileWildcardMatcher } from "../../core/wildcard-match.js";

/**
 * A plain wildcard: `*` matches any run of characters (including none), `?` one character, the rest is literal
 * and case-sensitive. Used for tool-name globs and parameter values. Linear time (no RegExp).
 */
export function compileWildcard(pattern: string): (value: string) => boolean {
  if (pattern === "*") return () => true;
  return compileWildcardMatcher(pattern, { question: true });
}
