/**
 * The key a saved report (`toolgate analyze --html`) stores an API answer under, and the page looks it up by: the
 * path and its parameters sorted by name, without the token. Shared by the server (node) and the page (browser).
 */
export function answerKey(path: string, params: URLSearchParams): string {
  const sorted = [...params].filter(([key]) => key !== "token").sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const query = new URLSearchParams(sorted).toString();
  return query ? `${path}?${query}` : path;
}
