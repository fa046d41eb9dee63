/**
 * Tool families for detection (input summaries, the OS-denial classifier): the one table lives in
 * core/tool-families.ts, shared with the policy and the core's default thresholds.
 */
export { TOOL_FAMILIES, type ToolFamily, toolFamily } from "../core/tool-families.js";
