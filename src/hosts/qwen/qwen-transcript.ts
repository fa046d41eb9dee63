import { canonicalJson } from "../../core/canonical-json.js";
import type { DenialSource } from "../../core/events.js";

/**
 * Reads a Qwen Code 0.24.4 chat transcript (`~/.qwen/projects/<cwd>/chats/<session>.jsonl`, every hook's
 * `transcript_path`). Qwen checks its own permission rules before any hook, so a call its rules deny, or that it
 * declines in a non-interactive run, fires no hook at all; its `tool_result` record (`toolCallResult.errorType:
 * "execution_denied"`) is the only trace. The model's call (`functionCall` in the `assistant` record before it)
 * carries the id both records share.
 */
export interface QwenTranscriptDenial {
  /** the model's call id (`call_…`), the transcript's key */
  toolUseId: string;
  tool: string;
  input: unknown;
  /** the text the model received */
  text: string;
  source: DenialSource;
  /** the rule Qwen named (`Bash(rm *)`, `edit`, ...) */
  rule?: string;
}

interface Call {
  id: string;
  tool: string;
  input: unknown;
}

const RULE_DENIED = /denied by permission rules\. Matching deny rule: "([^"]*)"/;
const DECLINED_RULE =
  /^Qwen Code requires permission to use "[^"]*", but that permission was declined\. Matching deny rule: "([^"]*)"/;
const HEADLESS = /^Qwen Code requires permission to use .*declined/s;
const CLASSIFIER = /^Blocked by auto mode policy/;

/** toolgate's own PreToolUse refusals start with this: the hook recorded them already. */
export const TOOLGATE_TEXT_PREFIX = "[toolgate]";

/** The denial source of a refused call's text, and the rule Qwen named. */
export function classifyQwenDenial(text: string): { source: DenialSource; rule?: string } {
  const ruled = RULE_DENIED.exec(text) ?? DECLINED_RULE.exec(text);
  if (ruled !== null) return { source: "rule", rule: ruled[1] as string };
  if (HEADLESS.test(text)) return { source: "headless" };
  if (CLASSIFIER.test(text)) return { source: "classifier" };
  // a PreToolUse or PermissionRequest hook's own reason (toolgate's are recorded by the hook itself)
  return { source: "hook" };
}

function records(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (line.length === 0 || line[0] !== "{") continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        out.push(value as Record<string, unknown>);
    } catch {
      // a line cut by a concurrent write: the next hook reads it whole
    }
  }
  return out;
}

function partsOf(record: Record<string, unknown>): Record<string, unknown>[] {
  const message = record["message"] as { parts?: unknown } | undefined;
  const parts = Array.isArray(message?.parts) ? (message.parts as unknown[]) : [];
  return parts.filter((part): part is Record<string, unknown> => typeof part === "object" && part !== null);
}

function callsOf(record: Record<string, unknown>): Call[] {
  if (record["type"] !== "assistant") return [];
  const calls: Call[] = [];
  for (const part of partsOf(record)) {
    const call = part["functionCall"] as { id?: unknown; name?: unknown; args?: unknown } | undefined;
    if (call === undefined || typeof call.id !== "string" || typeof call.name !== "string") continue;
    calls.push({ id: call.id, tool: call.name, input: call.args ?? {} });
  }
  return calls;
}

/** Every call Qwen refused itself, in transcript order, each once. */
export function findQwenTranscriptDenials(text: string): QwenTranscriptDenial[] {
  const calls = new Map<string, Call>();
  const denials: QwenTranscriptDenial[] = [];
  const seen = new Set<string>();
  for (const record of records(text)) {
    for (const call of callsOf(record)) calls.set(call.id, call);
    if (record["type"] !== "tool_result") continue;
    const result = record["toolCallResult"] as
      | { callId?: unknown; errorType?: unknown; resultDisplay?: unknown }
      | undefined;
    if (result?.errorType !== "execution_denied") continue;
    for (const part of partsOf(record)) {
      const response = part["functionResponse"] as { id?: unknown; name?: unknown; response?: unknown } | undefined;
      if (response === undefined) continue;
      const id =
        typeof response.id === "string" ? response.id : typeof result.callId === "string" ? result.callId : undefined;
      if (id === undefined || seen.has(id)) continue;
      seen.add(id);
      const body = (response.response ?? {}) as { error?: unknown };
      const refusal =
        typeof body.error === "string"
          ? body.error
          : typeof result.resultDisplay === "string"
            ? result.resultDisplay
            : "";
      if (refusal.startsWith(TOOLGATE_TEXT_PREFIX)) continue;
      const call = calls.get(id);
      denials.push({
        toolUseId: id,
        tool: call?.tool ?? (typeof response.name === "string" ? response.name : "unknown"),
        input: call?.input ?? {},
        text: refusal,
        ...classifyQwenDenial(refusal),
      });
    }
  }
  return denials;
}

/**
 * The model's id for the call a tool hook is about: the latest `functionCall` of that tool with the same arguments
 * (Qwen writes it before it runs any hook). Undefined when the transcript does not show it.
 */
export function findQwenCallId(options: { transcript: string; tool: string; input: unknown }): string | undefined {
  const wanted = canonicalJson(options.input ?? {});
  let found: string | undefined;
  for (const record of records(options.transcript)) {
    for (const call of callsOf(record)) {
      if (call.tool === options.tool && canonicalJson(call.input) === wanted) found = call.id;
    }
  }
  return found;
}

/**
 * Ids of the calls the transcript shows without a result yet. Qwen writes its records asynchronously, so on a busy
 * machine the previous step's `tool_result` can land a moment after the next UserPromptSubmit hook has started.
 */
export function pendingQwenCalls(text: string): string[] {
  const calls: string[] = [];
  const answered = new Set<string>();
  for (const record of records(text)) {
    for (const call of callsOf(record)) calls.push(call.id);
    if (record["type"] !== "tool_result") continue;
    const callId = (record["toolCallResult"] as { callId?: unknown } | undefined)?.callId;
    if (typeof callId === "string") answered.add(callId);
    for (const part of partsOf(record)) {
      const id = (part["functionResponse"] as { id?: unknown } | undefined)?.id;
      if (typeof id === "string") answered.add(id);
    }
  }
  return calls.filter((id) => !answered.has(id));
}

/**
 * Whether the transcript shows a finished tool step: its last conversation record (`user`, `assistant`,
 * `tool_result`) is a tool result and every call has one. What a continuation's UserPromptSubmit must see; until
 * then Qwen's asynchronous writer is still behind (both the model's call and its result can lag).
 */
export function qwenToolStepWritten(text: string): boolean {
  let last: unknown;
  for (const record of records(text)) {
    const type = record["type"];
    if (type === "user" || type === "assistant" || type === "tool_result") last = type;
  }
  return last === "tool_result" && pendingQwenCalls(text).length === 0;
}
