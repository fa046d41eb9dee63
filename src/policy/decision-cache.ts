import type { PolicyDecision } from "./policy-types.js";
import { commandOf, pathOf, type ToolFamily, urlOf } from "./tool-families.js";

const LIMIT = 2048;

/**
 * Remembers decisions for calls whose outcome depends only on the tool, one input field, the mode and the session
 * kind: shell commands, file paths and URLs, when no session grant and no parameter rule is involved. Agents
 * repeat calls, so the hot path then costs one Map lookup. Bounded (oldest entries go first); decisions are frozen.
 */
export function createDecisionCache(): {
  key: (options: {
    tool: string;
    family: ToolFamily;
    input: unknown;
    mode: string;
    interactive: boolean;
  }) => string | undefined;
  get: (key: string) => PolicyDecision | undefined;
  set: (key: string, decision: PolicyDecision) => PolicyDecision;
} {
  const entries = new Map<string, PolicyDecision>();
  return {
    key({ tool, family, input, mode, interactive }) {
      const subject =
        family === "shell"
          ? commandOf(input)
          : family === "read" || family === "edit"
            ? (pathOf(input) ?? "")
            : family === "web"
              ? urlOf(input)
              : undefined;
      if (subject === undefined) return undefined;
      return `${tool}\u0000${mode}\u0000${interactive ? 1 : 0}\u0000${subject}`;
    },
    get: (key) => entries.get(key),
    set(key, decision) {
      if (entries.size >= LIMIT) entries.delete(entries.keys().next().value as string);
      const frozen = Object.freeze(decision);
      entries.set(key, frozen);
      return frozen;
    },
  };
}
