import type { ToolCall } from "../../core/events.js";

/**
 * The subagent a hook event names, as the guard's options take it: `agent_id` when it is a non-empty string (an
 * empty or missing one is the main agent). One reading for every host whose events carry `agent_id`.
 */
export function agentOf(input: { agent_id?: unknown }): { agentId?: string } {
  const agentId = input.agent_id;
  return typeof agentId === "string" && agentId !== "" ? { agentId } : {};
}

/** The tool call of a hook event's `tool_name` and `tool_input`, under the id the host's records key it by. */
export function hookCallOf(input: { tool_name: string; tool_input: unknown }, toolUseId: string): ToolCall {
  return { toolUseId, tool: input.tool_name, input: input.tool_input };
}
