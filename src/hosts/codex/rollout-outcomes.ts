import type { DenialSource } from "../../core/events.js";
import { recognizeDenial } from "../../detect/recognize-denial.js";
import { type TranscriptLines, transcriptLinesOf } from "../common/hook-host.js";
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
  return rolloutDenialsIn(transcriptLinesOf(text));
}

/** The call's denial when its output is a refusal by Codex, else undefined. */
function refusalOf(callId: string, call: { tool: string; input: unknown }, raw: unknown): RolloutDenial | undefined {
  const output = outputText(raw);
  // an output that shows the command ran (an exit code) is not a refusal by Codex; PostToolUse reports it
  if (/^(Chunk ID|Process exited with code|Exit code)/m.test(output.slice(0, 300))) return undefined;
  const recognized = recognizeDenial({ tables: CODEX_TABLES, host: "codex", text: output, isError: true });
  return recognized === undefined ? undefined : { toolUseId: callId, ...call, source: recognized.source, text: output };
}

/** the outputs' payload types, as quoted JSON (what a rollout line holding one contains) */
const OUTPUT_NEEDLES = ['"function_call_output"', '"custom_tool_call_output"'];

/**
 * `rolloutDenials` over a rollout searched line by line (`TranscriptLines`): only the lines holding an output are
 * parsed (from a cursor on, when the lines were opened from one), and each refusal's call is the newest call line
 * with its id before the output (searched back over the whole rollout, as a call made before a cursor may be answered
 * after it).
 */
export function rolloutDenialsIn(transcript: TranscriptLines): RolloutDenial[] {
  const outputs: { callId: string; at: number; output: unknown }[] = [];
  for (const { line, at } of transcript.linesWith(OUTPUT_NEEDLES)) {
    const payload = payloadOf(parseLine(line));
    if (payload === undefined) continue;
    const { call_id: callId, type } = payload;
    if (typeof callId !== "string") continue;
    if (type !== "function_call_output" && type !== "custom_tool_call_output") continue;
    outputs.push({ callId, at, output: payload["output"] });
  }
  // each output's call, searched newest output first: the rollout is searched through a window (read-transcript.ts),
  // and a search back from an older output starts inside the window the newer one's search left, where in file order
  // each search started past it and read a window again
  const calls: ({ tool: string; input: unknown } | undefined)[] = new Array(outputs.length);
  for (let index = outputs.length - 1; index >= 0; index -= 1) {
    const { callId, at } = outputs[index] as (typeof outputs)[number];
    calls[index] = transcript.lastWith(JSON.stringify(callId), at, (raw) => callNamed(raw, callId));
  }
  const denials = new Map<string, RolloutDenial>();
  for (const [index, { callId, output }] of outputs.entries()) {
    const call = calls[index];
    if (call === undefined || denials.has(callId)) continue;
    const denial = refusalOf(callId, call, output);
    if (denial !== undefined) denials.set(callId, denial);
  }
  return [...denials.values()];
}

function payloadOf(record: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (record === undefined || record["type"] !== "response_item") return undefined;
  const payload = record["payload"];
  return typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : undefined;
}

/** The call a rollout line makes when it is a call with this id (`function_call` or `custom_tool_call`). */
function callNamed(raw: string, callId: string): { tool: string; input: unknown } | undefined {
  const payload = payloadOf(parseLine(raw));
  if (payload === undefined || payload["call_id"] !== callId) return undefined;
  const type = payload["type"];
  if (type !== "function_call" && type !== "custom_tool_call") return undefined;
  const name = typeof payload["name"] === "string" ? payload["name"] : String(type);
  return callInput(name, payload["arguments"] ?? payload["input"]);
}
