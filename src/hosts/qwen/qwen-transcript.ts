import { canonicalJson } from "../../core/canonical-json.js";
import type { DenialSource } from "../../core/events.js";
import { jsonObjectsWith, scannedOnce, type TranscriptLines, transcriptLinesOf } from "../common/hook-host.js";
import { jsonObjectOf } from "../common/json-line.js";

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

/** A chat file to search: its text, or its lines as `HookContext.openTranscript` reads them. */
export type QwenChat = string | TranscriptLines;

function linesOfChat(chat: QwenChat): TranscriptLines {
  return typeof chat === "string" ? transcriptLinesOf(chat) : chat;
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
export function findQwenTranscriptDenials(chat: QwenChat): QwenTranscriptDenial[] {
  return scanOf(chat).denials;
}

/** What one pass over a chat's calls and results tells: the refusals, and the calls still without a result. */
interface ChatScan {
  denials: QwenTranscriptDenial[];
  pending: string[];
}

/** Each opened chat's scan, made once: a settle check and the refusals' search read the same lines. */
function scanOf(chat: QwenChat): ChatScan {
  return scanOnce(linesOfChat(chat));
}

/**
 * One pass, in file order, over the records of the lines that name a call ("functionCall") or a result (their type,
 * "tool_result"); the rest (the person's prompts, system records) are never parsed. Of an opened chat, only the
 * lines after its cursor. A refusal's call is the latest one before it; one not among these lines (made before the
 * cursor) is searched back for through the whole file.
 */
const scanOnce = scannedOnce(scanLines);

function scanLines(lines: TranscriptLines): ChatScan {
  const calls = new Map<string, Call>();
  const made: string[] = [];
  const answered = new Set<string>();
  const denials: QwenTranscriptDenial[] = [];
  const seen = new Set<string>();
  for (const { value: record, at } of jsonObjectsWith(lines, ['"functionCall"', '"tool_result"'])) {
    for (const call of callsOf(record)) {
      calls.set(call.id, call);
      made.push(call.id);
    }
    if (record["type"] !== "tool_result") continue;
    const result = record["toolCallResult"] as
      | { callId?: unknown; errorType?: unknown; resultDisplay?: unknown }
      | undefined;
    if (typeof result?.callId === "string") answered.add(result.callId);
    for (const part of partsOf(record)) {
      const response = part["functionResponse"] as { id?: unknown; name?: unknown; response?: unknown } | undefined;
      if (typeof response?.id === "string") answered.add(response.id);
      if (result?.errorType !== "execution_denied" || response === undefined) continue;
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
      const call = calls.get(id) ?? callBefore(lines, id, at);
      denials.push({
        toolUseId: id,
        tool: call?.tool ?? (typeof response.name === "string" ? response.name : "unknown"),
        input: call?.input ?? {},
        text: refusal,
        ...classifyQwenDenial(refusal),
      });
    }
  }
  return { denials, pending: made.filter((id) => !answered.has(id)) };
}

/** The model's call `id` as the latest record before position `before` that makes it shows it. */
function callBefore(lines: TranscriptLines, id: string, before: number): Call | undefined {
  return lines.lastWith(JSON.stringify(id), before, (line) => {
    const record = jsonObjectOf(line);
    let found: Call | undefined;
    if (record !== undefined) for (const call of callsOf(record)) if (call.id === id) found = call;
    return found;
  });
}

/**
 * The model's id for the call a tool hook is about: the latest `functionCall` of that tool with the same arguments
 * (Qwen writes it before it runs any hook). Undefined when the transcript does not show it.
 */
export function findQwenCallId(options: { transcript: QwenChat; tool: string; input: unknown }): string | undefined {
  const wanted = canonicalJson(options.input ?? {});
  return linesOfChat(options.transcript).lastWith('"functionCall"', Number.MAX_SAFE_INTEGER, (line) => {
    const record = jsonObjectOf(line);
    let found: string | undefined;
    if (record !== undefined) {
      for (const call of callsOf(record)) {
        if (call.tool === options.tool && canonicalJson(call.input) === wanted) found = call.id;
      }
    }
    return found;
  });
}

/**
 * Ids of the calls the transcript shows without a result yet. Qwen writes its records asynchronously, so on a busy
 * machine the previous step's `tool_result` can land a moment after the next UserPromptSubmit hook has started.
 */
export function pendingQwenCalls(chat: QwenChat): string[] {
  return scanOf(chat).pending;
}

/**
 * Whether the transcript shows a finished tool step: its last conversation record (`user`, `assistant`,
 * `tool_result`, found searching back from the end) is a tool result and every call has one. What a continuation's
 * UserPromptSubmit must see; until then Qwen's asynchronous writer is still behind (both the model's call and its
 * result can lag).
 */
export function qwenToolStepWritten(chat: QwenChat): boolean {
  const lines = linesOfChat(chat);
  const last = lines.lastWith('"type"', Number.MAX_SAFE_INTEGER, (line) => {
    const type = jsonObjectOf(line)?.["type"];
    return type === "user" || type === "assistant" || type === "tool_result" ? type : undefined;
  });
  return last === "tool_result" && pendingQwenCalls(lines).length === 0;
}
