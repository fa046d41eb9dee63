import type { DenialSource } from "../../core/events.js";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import { CODEX_DENIAL_TEXTS } from "./codex-denial-texts.js";

const CODEX_TABLES = [CODEX_DENIAL_TEXTS];

/** One call of a Codex rollout that Codex (not toolgate) refused, as the model was told. */
export interface RolloutDenial {
  toolUseId: string;
  /** `Bash` for shell calls (as in Codex's hook payloads), else the rollout's tool name */
  tool: string;
  /** `{ command }` for shell calls (as in the hook payloads), else the call's arguments */
  input: unknown;
  source: DenialSource;
  text: string;
}

const SHELL_TOOLS = new Set(["exec_command", "shell", "local_shell", "shell_command"]);

function parseLine(line: string): Record<string, unknown> | undefined {
  // only calls and their outputs matter: messages, reasoning and turn context (the bulk) are not parsed
  if (!line.startsWith("{") || !line.includes('"response_item"') || !line.includes("_call")) return undefined;
  try {
    const value = JSON.parse(line) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined; // a line still being written
  }
}

function callInput(name: string, argumentsText: unknown): { tool: string; input: unknown } {
  let input: unknown = argumentsText;
  if (typeof argumentsText === "string") {
    try {
      input = JSON.parse(argumentsText);
    } catch {
      input = argumentsText;
    }
  }
  if (SHELL_TOOLS.has(name) && typeof input === "object" && input !== null) {
    const record = input as Record<string, unknown>;
    const command = record["cmd"] ?? record["command"];
    if (command !== undefined) return { tool: "Bash", input: { command } };
  }
  return { tool: name, input };
}

function outputText(raw: unknown): string {
  if (typeof raw === "string") return raw;
  if (typeof raw === "object" && raw !== null && typeof (raw as { output?: unknown }).output === "string") {
    return (raw as { output: string }).output;
  }
  return JSON.stringify(raw ?? "");
}

/**
 * The calls of a Codex 0.169.0 rollout (`transcript_path`) whose result is a refusal: a `forbidden` rule or a
 * built-in refusal (`... rejected: ...`), a `prompt` rule under approval `never`, a sandbox or network refusal, a
 * PreToolUse hook block. Keyed by call id (the hook payloads' `tool_use_id`), each once, in rollout order. Calls that
 * ran are not listed: their outcome arrives through PostToolUse.
 */
export function rolloutDenials(text: string): RolloutDenial[] {
  const calls = new Map<string, { tool: string; input: unknown }>();
  const denials = new Map<string, RolloutDenial>();
  for (const line of text.split("\n")) {
    const record = parseLine(line);
    if (record === undefined || record["type"] !== "response_item") continue;
    const payload = record["payload"] as Record<string, unknown> | undefined;
    if (payload === undefined || typeof payload["call_id"] !== "string") continue;
    const callId = payload["call_id"];
    const type = payload["type"];
    if (type === "function_call" || type === "custom_tool_call") {
      const name = typeof payload["name"] === "string" ? payload["name"] : String(type);
      calls.set(callId, callInput(name, payload["arguments"] ?? payload["input"]));
      continue;
    }
    if (type !== "function_call_output" && type !== "custom_tool_call_output") continue;
    const call = calls.get(callId);
    if (call === undefined || denials.has(callId)) continue;
    const output = outputText(payload["output"]);
    // an output that shows the command ran (an exit code) is not a refusal by Codex; PostToolUse reports it
    if (/^(Chunk ID|Process exited with code|Exit code)/m.test(output.slice(0, 300))) continue;
    const recognized = recognizeDenial({ tables: CODEX_TABLES, host: "codex", text: output, isError: true });
    if (recognized === undefined) continue;
    denials.set(callId, { toolUseId: callId, ...call, source: recognized.source, text: output });
  }
  return [...denials.values()];
}
