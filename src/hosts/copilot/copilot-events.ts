import {
  jsonObjectsWith,
  scannedOnce,
  type TranscriptDenialRecord,
  type TranscriptLines,
  transcriptLinesOf,
} from "../common/hook-host.js";
import { jsonObjectOf } from "../common/json-line.js";
import { classifyCopilotDenial } from "./copilot-denial-texts.js";

/**
 * Reads what GitHub Copilot CLI 1.0.102 writes of a session: `~/.copilot/session-state/<id>/events.jsonl` and the
 * `--output-format json` stream hold the same events, one JSON object a line, `{ type, data, id, timestamp }`:
 * `tool.execution_start` (`toolCallId`, `toolName`, `arguments`) and `tool.execution_complete` (`toolCallId`,
 * `success`, `error: { message, code }`). A call Copilot's own rules refused (`--deny-tool`) fires no hook after
 * it: its `tool.execution_complete` has `error.code: "denied"` (a permissionRequest hook's deny: `"rejected"`).
 */
interface CopilotEvent {
  type?: unknown;
  data?: Record<string, unknown>;
}

/** Marks toolgate's own refusals in the texts Copilot records (so they are never counted twice). */
export const TOOLGATE_MARK = "[toolgate]";

/**
 * A session's events to search: their text, or their lines as `HookContext.openTranscript` reads them (only the lines
 * a search names are decoded).
 */
export type CopilotEventLines = string | TranscriptLines;

function linesOfEvents(events: CopilotEventLines): TranscriptLines {
  return typeof events === "string" ? transcriptLinesOf(events) : events;
}

/** The calls' events (`tool.execution_*`, `permission.completed`), parsed; the rest of the file is never decoded. */
function events(lines: TranscriptLines): CopilotEvent[] {
  const parsed: CopilotEvent[] = [];
  for (const { value } of jsonObjectsWith(lines, ['"tool.execution_', '"permission.completed"'])) {
    if (typeof value["data"] === "object") parsed.push(value);
  }
  return parsed;
}

interface Started {
  id: string;
  tool: string;
  input: Record<string, unknown>;
}

interface Completed {
  id: string;
  success: boolean;
  error?: { message: string; code?: string };
  result?: string;
}

/**
 * Whether a `permission.completed` event is a person's refusal: Copilot asked (its own prompt, or a hook's ask) and
 * the person said no (`decisionSource: "human_response"`, a `denied-...` result such as `denied-interactively-by-user`).
 */
export function refusedByPerson(data: Record<string, unknown>): boolean {
  const result = data["result"] as { kind?: unknown } | undefined;
  return (
    data["decisionSource"] === "human_response" && typeof result?.kind === "string" && result.kind.startsWith("denied")
  );
}

interface ToolEvents {
  started: Started[];
  completed: Map<string, Completed>;
  byPerson: Set<string>;
}

/** Each opened events file's calls, read once: a settle check, the call's id and the refusals read the same scan. */
function toolEvents(source: CopilotEventLines): ToolEvents {
  return scanOnce(linesOfEvents(source));
}

const scanOnce = scannedOnce(scanToolEvents);

function scanToolEvents(lines: TranscriptLines): ToolEvents {
  const started: Started[] = [];
  const completed = new Map<string, Completed>();
  const byPerson = new Set<string>();
  for (const event of events(lines)) {
    const data = event.data ?? {};
    const id = data["toolCallId"];
    if (typeof id !== "string") continue;
    if (event.type === "permission.completed") {
      if (refusedByPerson(data)) byPerson.add(id);
    } else if (event.type === "tool.execution_start") {
      const call = startedOf(event);
      if (call !== undefined) started.push(call);
    } else if (event.type === "tool.execution_complete") {
      const error = data["error"] as { message?: unknown; code?: unknown } | undefined;
      const result = data["result"] as { content?: unknown } | undefined;
      completed.set(id, {
        id,
        success: data["success"] === true,
        ...(typeof error?.message === "string"
          ? {
              error: { message: error.message, ...(typeof error.code === "string" ? { code: error.code } : {}) },
            }
          : {}),
        ...(typeof result?.content === "string" ? { result: result.content } : {}),
      });
    }
  }
  return { started, completed, byPerson };
}

/** Whether `partial` (a hook's arguments) names the same call as `full` (the event's): every key it has is equal. */
function sameArguments(partial: unknown, full: Record<string, unknown>): boolean {
  if (typeof partial !== "object" || partial === null) return false;
  return Object.entries(partial as Record<string, unknown>).every(
    ([key, value]) => JSON.stringify(full[key]) === JSON.stringify(value),
  );
}

/**
 * The id Copilot gave a call, from the last started call with this tool and these arguments (`pending`: only one
 * not completed yet, as at preToolUse and permissionRequest); undefined when the events do not show it (yet). A
 * pending call is among the scanned lines (of an opened file, those after its cursor: a cursor is left only where
 * no call was pending); any other is searched back from the file's end, so the call a postToolUse is about (one of
 * the last started) is found without reading the session's earlier calls.
 */
export function findCopilotCallId(options: {
  text: CopilotEventLines;
  tool: string;
  args: unknown;
  pending: boolean;
}): string | undefined {
  if (!options.pending) {
    return linesOfEvents(options.text).lastWith('"tool.execution_start"', Number.MAX_SAFE_INTEGER, (line) => {
      const call = startedCall(line);
      return call !== undefined && call.tool === options.tool && sameArguments(options.args, call.input)
        ? call.id
        : undefined;
    });
  }
  const { started, completed } = toolEvents(options.text);
  for (let at = started.length - 1; at >= 0; at -= 1) {
    const call = started[at] as Started;
    if (call.tool !== options.tool || !sameArguments(options.args, call.input)) continue;
    if (completed.has(call.id)) continue;
    return call.id;
  }
  return undefined;
}

/** The call a `tool.execution_start` line starts, as the scan reads it; undefined for any other line. */
function startedCall(line: string): Started | undefined {
  const event = jsonObjectOf(line);
  return event === undefined ? undefined : startedOf(event);
}

/** The call a `tool.execution_start` event starts; undefined for any other event. */
function startedOf(event: CopilotEvent): Started | undefined {
  const data = event.data;
  if (event.type !== "tool.execution_start" || typeof data !== "object" || data === null) return undefined;
  const id = data["toolCallId"];
  if (typeof id !== "string" || typeof data["toolName"] !== "string") return undefined;
  const args = data["arguments"];
  return {
    id,
    tool: data["toolName"],
    input: typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {},
  };
}

/**
 * The id of the call a preToolUse hook was run for: Copilot records each hook's start in the events
 * (`hook.start`, `hookType: "preToolUse"`, `input.toolCalls: [{ id, name, args }]`) with the same millisecond
 * `timestamp` as the payload it sends the hook. Exact even when the model retries the same call; undefined until
 * Copilot wrote that line.
 */
export function findCopilotPreToolUseId(options: {
  text: CopilotEventLines;
  timestamp: number | undefined;
  tool: string;
  args: unknown;
}): string | undefined {
  if (options.timestamp === undefined) return undefined;
  const at = new Date(options.timestamp).toISOString();
  for (const { line } of linesOfEvents(options.text).linesWith([`"timestamp":"${at}"`])) {
    if (!line.includes('"hookType":"preToolUse"')) continue;
    try {
      const value = JSON.parse(line) as { type?: unknown; data?: { input?: { toolCalls?: unknown } } };
      const calls = value.data?.input?.toolCalls;
      if (value.type !== "hook.start" || !Array.isArray(calls)) continue;
      const call = (calls as { id?: unknown; name?: unknown; args?: unknown }[]).find(
        (entry) =>
          entry.name === options.tool &&
          typeof entry.id === "string" &&
          sameArguments(options.args, (entry.args ?? {}) as Record<string, unknown>),
      );
      if (call !== undefined) return call.id as string;
    } catch {
      // a line still being written
    }
  }
  return undefined;
}

/** The ids of calls started and not completed (Copilot writes the completion about 100 ms after the call ends). */
export function pendingCopilotCalls(text: CopilotEventLines): string[] {
  const { started, completed } = toolEvents(text);
  return started.filter((call) => !completed.has(call.id)).map((call) => call.id);
}

/**
 * The calls Copilot refused (its rules, a headless approval, another hook, a person at its prompt: `user`), each with
 * the text the model read, its source and rule; toolgate's own refusals (marked) are left out (the hook recorded them
 * already; a person's No to toolgate's ask is not one) unless `withToolgate` (what `toolgate run` reports: every
 * refused call of the run).
 */
export function copilotDenials(
  text: CopilotEventLines,
  options: { withToolgate?: boolean } = {},
): TranscriptDenialRecord[] {
  const { started, completed, byPerson } = toolEvents(text);
  const denials: TranscriptDenialRecord[] = [];
  for (const call of started) {
    const outcome = completed.get(call.id);
    const error = outcome?.error;
    if (outcome === undefined || outcome.success || error === undefined) continue;
    if (error.code !== "denied" && error.code !== "rejected") continue;
    // toolgate's own refusals are the hook's already; a person's No to toolgate's ask is not one of them
    if (options.withToolgate !== true && error.message.includes(TOOLGATE_MARK) && !byPerson.has(call.id)) continue;
    const { source, rule } = byPerson.has(call.id)
      ? { source: "user" as const, rule: undefined }
      : classifyCopilotDenial(error.message);
    denials.push({
      toolUseId: call.id,
      tool: call.tool,
      input: call.input,
      source,
      text: error.message,
      ...(rule === undefined ? {} : { rule }),
    });
  }
  return denials;
}

/** Where Copilot keeps a session's events: `$COPILOT_HOME/session-state/<id>/events.jsonl` (default `~/.copilot`). */
export function copilotEventsPath(options: {
  env: Readonly<Record<string, string | undefined>>;
  sessionId: string;
}): string | undefined {
  if (!/^[A-Za-z0-9._-]+$/.test(options.sessionId) || options.sessionId.startsWith(".")) return undefined;
  const home = copilotHome(options.env);
  return home === undefined ? undefined : `${home}/session-state/${options.sessionId}/events.jsonl`;
}

/** `$COPILOT_HOME`, else `$HOME/.copilot`; undefined when neither is set. */
export function copilotHome(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const own = env["COPILOT_HOME"];
  if (own !== undefined && own !== "") return own.replace(/\/+$/, "");
  const home = env["HOME"];
  return home === undefined || home === "" ? undefined : `${home.replace(/\/+$/, "")}/.copilot`;
}
