/**
 * Tool-name globs: `*` matches any run of characters, `?` one character, everything else literally
 * (case-sensitive). Compiled once; the hot path only calls the returned function.
 */
export function compileToolGlob(glob: string): (tool: string) => boolean {
  if (!glob.includes("*") && !glob.includes("?")) return (tool) => tool === glob;
  let source = "^";
  for (const char of glob) {
    if (char === "*") source += ".*";
    else if (char === "?") source += ".";
    else source += char.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  const pattern = new RegExp(`${source}$`);
  return (tool) => pattern.test(tool);
}

/** A matcher for any of several globs. */
export function compileToolGlobs(globs: readonly string[]): (tool: string) => boolean {
  const matchers = globs.map(compileToolGlob);
  return (tool) => matchers.some((matches) => matches(tool));
}
