import { unreadableToolName } from "../core/tool-name.js";
import type { PolicyDecision } from "./policy-types.js";

/**
 * The policy's refusal of a call whose tool name toolgate cannot read (`unreadableToolName`: a control or invisible
 * character, whitespace at an end, a look-alike letter among ASCII ones), or undefined for a readable name. Refused
 * whatever the rules, grants and mode say, and never taken for another tool.
 */
export function unreadableToolDecision(tool: string): PolicyDecision | undefined {
  const why = unreadableToolName(tool);
  if (why === undefined) return undefined;
  return {
    behavior: "deny",
    source: "toolgate",
    reason: `toolgate cannot read this tool name (${why}), so the call is denied. Call the tool by its exact name, in plain characters.`,
    denialSource: "validation",
  };
}
