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
