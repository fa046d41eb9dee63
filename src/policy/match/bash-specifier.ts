import { compileWildcardMatcher } from "../../core/wildcard-match.js";

/**
 * Compiles a Bash specifier the way Claude Code reads it:
 * - `*` is a glob anywhere and may span spaces and arguments (`git * main`, `* install`, `ls*`);
 * - a trailing ` *` (or the legacy `:*`, recognised only at the very end) is a word boundary whose tail is
 *   optional: `ls *` matches `ls` and `ls -la` but not `lsof`;
 * - whitespace runs are normalised to one space on both sides;
 * - everything else is literal, and the whole subcommand must match.
 */
export function compileBashSpecifier(specifier: string): (command: string) => boolean {
  let pattern = specifier.trim().replace(/\s+/g, " ");
  if (pattern.endsWith(":*")) pattern = `${pattern.slice(0, -2)} *`;
  if (pattern === "*" || pattern === "") return () => true;
  let tail = "";
  if (pattern.endsWith(" *")) {
    pattern = pattern.slice(0, -2);
    tail = "(?: .*)?";
  }
  if (!pattern.includes("*")) {
    const exact = pattern;
    if (tail === "") return (command) => command === exact;
    const prefix = `${exact} `;
    return (command) => command === exact || command.startsWith(prefix);
  }
  // linear-time matching (no RegExp): a rule with several `*` used to backtrack for seconds on a long command
  const whole = compileWildcardMatcher(pattern, { question: false });
  if (tail === "") return whole;
  const withTail = compileWildcardMatcher(`${pattern} *`, { question: false });
  return (command) => whole(command) || withTail(command);
}

/**
 * The literal form of a Bash specifier that has no wildcard but an optional trailing ` *`: `git push *` is
 * `{ text: "git push", tail: true }` (matches `git push` and `git push` + a space + anything), `git status` is
 * `{ text: "git status", tail: false }` (matches only itself). Such rules are looked up by their text instead of
 * being tested one by one (`indexToolRules`); undefined for every other specifier, which keeps its own test. Mirrors
 * `compileBashSpecifier` exactly.
 */
export function bashSpecifierLiteral(specifier: string): { text: string; tail: boolean } | undefined {
  let pattern = specifier.trim().replace(/\s+/g, " ");
  if (pattern.endsWith(":*")) pattern = `${pattern.slice(0, -2)} *`;
  if (pattern === "*" || pattern === "") return undefined;
  let tail = false;
  if (pattern.endsWith(" *")) {
    pattern = pattern.slice(0, -2);
    tail = true;
  }
  // words separated by single spaces only (no empty word at either end or between two spaces)
  if (pattern.includes("*") || !/^[^ ]+(?: [^ ]+)*$/.test(pattern)) return undefined;
  return { text: pattern, tail };
}
