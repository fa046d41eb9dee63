import { compileWildcardMatcher } from "./wildcard-match.js";

/**
 * Tool-name globs: `*` matches any run of characters, `?` one character, everything else literally
 * (case-sensitive). Compiled once; the hot path only calls the returned function, which runs in linear time
 * whatever the number of stars (no RegExp: `mcp__*a*a*a*a*a*a*a*a*b` used to backtrack for a minute on a
 * 55-character name).
 */
export function compileToolGlob(glob: string): (tool: string) => boolean {
  return compileWildcardMatcher(glob, { question: true });
}

/** A matcher for any of several globs. */
export function compileToolGlobs(globs: readonly string[]): (tool: string) => boolean {
  const matchers = globs.map(compileToolGlob);
  return (tool) => matchers.some((matches) => matches(tool));
}
