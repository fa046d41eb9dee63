import type { ToolCall } from "../../core/events.js";

/**
 * A Cline tool call (`beforeTool`'s `toolCall`, a session file's `tool_use`) as toolgate's call. Cline's shell tool
 * `run_commands` takes `{ commands: string[] }` and runs them one after another: toolgate reads them as one shell
 * script, one command a line, so a rule that denies any of them denies the call. An input of any other shape is
 * kept as it is (a shell call whose command cannot be read is refused by the policy).
 */
export function clineToolCall(options: { toolCallId: unknown; toolName: unknown; input: unknown }): ToolCall {
  const tool = typeof options.toolName === "string" ? options.toolName : "";
  const toolUseId = typeof options.toolCallId === "string" ? options.toolCallId : "";
  return { toolUseId, tool, input: tool === "run_commands" ? shellInput(options.input) : options.input };
}

function shellInput(input: unknown): unknown {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const commands = (input as Record<string, unknown>)["commands"];
  if (!Array.isArray(commands) || commands.length === 0) return input;
  if (!commands.every((command): command is string => typeof command === "string")) return input;
  return { command: commands.join("\n") };
}

/** The text a Cline tool result carried back to the model (its `output`, a string or Cline's JSON). */
export function clineResultText(output: unknown): string {
  if (typeof output === "string") return output;
  if (output === undefined || output === null) return "";
  if (Array.isArray(output)) {
    // run_commands: one `{ query, result, success }` per command
    return output
      .map((item) => {
        const record = typeof item === "object" && item !== null ? (item as Record<string, unknown>) : {};
        const result = record["result"] ?? record["error"] ?? "";
        return typeof result === "string" ? result : JSON.stringify(result);
      })
      .join("\n");
  }
  return JSON.stringify(output);
}

/** Whether a `run_commands` result reports a command that failed (`success: false`). */
export function clineCommandFailed(output: unknown): boolean {
  return (
    Array.isArray(output) &&
    output.some(
      (item) => typeof item === "object" && item !== null && (item as { success?: unknown }).success === false,
    )
  );
}
