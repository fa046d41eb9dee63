/**
 * A plain wildcard: `*` matches any run of characters (including none), `?` one character, the rest is literal
 * and case-sensitive. Used for tool-name globs and parameter values.
 */
export function compileWildcard(pattern: string): (value: string) => boolean {
  if (pattern === "*") return () => true;
  if (!pattern.includes("*") && !pattern.includes("?")) return (value) => value === pattern;
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  const regex = new RegExp(`^${body}$`, "s");
  return (value) => regex.test(value);
}
