/**
 * Colours per denial source, each at least 4.5:1 against the white background (WCAG AA for text, so the legend
 * and the bars read as well as the labels), and distinct in hue from their neighbours.
 */
export const SOURCE_COLOURS: Record<string, string> = {
  rule: "#b91c1c",
  user: "#1d4ed8",
  headless: "#7e22ce",
  sandbox: "#92400e",
  loop: "#0f766e",
  hook: "#c2410c",
  mode: "#4d7c0f",
  classifier: "#be185d",
  validation: "#475569",
  aborted: "#111827",
  internal: "#6b21a8",
};

export function sourceColour(source: string): string {
  return SOURCE_COLOURS[source] ?? "#374151";
}
