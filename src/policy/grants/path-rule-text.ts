/**
 * A path as a Claude Code rule specifier: an absolute path becomes `//abs/path` (absolute from the root), a
 * relative one `/rel/path` (relative to the project root); glob characters are escaped so the rule is literal.
 */
export function pathSpecifier(path: string): string {
  const escaped = path.replace(/[*?[\]{}()!\\]/g, "\\$&");
  if (escaped.startsWith("/")) return `/${escaped}`;
  return `/${escaped.replace(/^(\.\/)+/, "")}`;
}
