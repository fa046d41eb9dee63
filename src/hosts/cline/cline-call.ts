import type { ToolCall } from "../../core/events.js";
import { clineCommandLines } from "./cline-command-lines.js";
import { clinePatchPaths, clineReadPaths } from "./cline-file-paths.js";

/**
 * A Cline tool call (`beforeTool`'s `toolCall`, a session file's `tool_use`) as the calls toolgate's policy decides,
 * one per thing the call acts on, all under Cline's tool name (an MCP tool's as `mcp__<server>__<tool>`):
 * - `run_commands`: one call whose command is every command line the input holds (any shape Cline accepts), one a
 *   line: the policy reads them as one script, so a rule that denies any of them denies the call;
 * - `read_files`: one call per file (`{ path }`); `apply_patch`: one per file the patch names (`{ path }`);
 *   `fetch_web_content`: one per request (`{ url, prompt }`). The first keeps Cline's call id, the others add `#2`,
 *   `#3`, ...; the caller refuses the Cline call when it refuses any of them;
 * - any other tool: one call with the input as it is (`editor`'s `path` is what Edit rules read).
 * An input of one of the first four whose shape toolgate cannot read is `unreadable` (the caller refuses the call:
 * what toolgate cannot read, it cannot check), with the call as Cline sent it for the record.
 */
export type ClineCallReading = { calls: [ToolCall, ...ToolCall[]] } | { unreadable: string; call: ToolCall };

export function readClineCall(options: { toolCallId: unknown; toolName: unknown; input: unknown }): ClineCallReading {
  const tool = clineToolName(options.toolName);
  const toolUseId = typeof options.toolCallId === "string" ? options.toolCallId : "";
  const { input } = options;
  const inputs = targetInputs(tool, input);
  if (inputs === undefined) return { calls: [{ toolUseId, tool, input }] };
  if ("unreadable" in inputs) return { unreadable: inputs.unreadable, call: { toolUseId, tool, input } };
  const [first, ...rest] = inputs.inputs;
  return {
    calls: [
      { toolUseId, tool, input: first },
      ...rest.map((part, index) => ({ toolUseId: `${toolUseId}#${index + 2}`, tool, input: part })),
    ],
  };
}

/**
 * One Cline call as one toolgate call, for a transcript (`analyze`): the first of `readClineCall`'s calls (a
 * `run_commands` call's whole script, a `read_files` call's first file), or the call as Cline sent it when its input
 * cannot be read.
 */
export function clineToolCall(options: { toolCallId: unknown; toolName: unknown; input: unknown }): ToolCall {
  const reading = readClineCall(options);
  return "calls" in reading ? reading.calls[0] : reading.call;
}

/**
 * Cline names an MCP tool `<server>__<tool>` (its `x7`: sanitised, and cut with a hash past 64 characters), and none of
 * its own tools holds `__`: such a name is an MCP tool's, `mcp__<server>__<tool>` for toolgate's rules and families.
 */
export function clineToolName(toolName: unknown): string {
  if (typeof toolName !== "string") return "";
  const separator = toolName.indexOf("__");
  const mcp = separator > 0 && separator + 2 < toolName.length && !toolName.startsWith("mcp__");
  return mcp ? `mcp__${toolName}` : toolName;
}

type TargetInputs = { inputs: [unknown, ...unknown[]] } | { unreadable: string };

/** The inputs of the calls the policy decides for one Cline call; undefined: the input as it is. */
function targetInputs(tool: string, input: unknown): TargetInputs | undefined {
  switch (tool) {
    case "run_commands": {
      const reading = clineCommandLines(input);
      return "lines" in reading ? { inputs: [{ command: reading.lines.join("\n") }] } : reading;
    }
    case "read_files":
      return pathInputs(clineReadPaths(input));
    case "apply_patch":
      return pathInputs(clinePatchPaths(input));
    case "fetch_web_content":
      return fetchInputs(input);
    default:
      return undefined;
  }
}

function pathInputs(reading: { paths: string[] } | { unreadable: string }): TargetInputs {
  if ("unreadable" in reading) return reading;
  const [first, ...rest] = reading.paths.map((path) => ({ path }));
  return { inputs: [first as { path: string }, ...rest] };
}

/** Cline 3.0.65's `fetch_web_content`: `{ requests: [{ url, prompt }] }` (its `FetchWebContentInputSchema`). */
function fetchInputs(input: unknown): TargetInputs {
  const requests =
    typeof input === "object" && input !== null && !Array.isArray(input)
      ? (input as Record<string, unknown>)["requests"]
      : undefined;
  if (!Array.isArray(requests) || requests.length === 0) return { unreadable: "it has no requests array" };
  const inputs: unknown[] = [];
  for (const request of requests) {
    const { url, prompt } = (typeof request === "object" && request !== null ? request : {}) as Record<string, unknown>;
    if (typeof url !== "string" || url.trim() === "") return { unreadable: "a request has no url string" };
    inputs.push(typeof prompt === "string" ? { url, prompt } : { url });
  }
  return { inputs: inputs as [unknown, ...unknown[]] };
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
