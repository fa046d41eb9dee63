import { canonicalJson } from "../../core/canonical-json.js";
import type { CallTokens } from "../../core/events.js";
import type { DenialRecord } from "../../core/records.js";
import type { ReaderSource } from "../common/reader-event.js";
import { isOwnCallId } from "./gemini-call-id.js";
import { geminiSession } from "./gemini-session.js";

/**
 * The tokens of the calls toolgate refused at BeforeTool. Gemini's hook input names no call id, so toolgate records
 * such a refusal under an id of its own (`gemini-<uuid>`), which the session file never shows. The session file
 * records the same call (Gemini 0.61.0, `recordCompletedToolCalls`) under Gemini's id with its `name`, its `args`, a
 * `timestamp` taken when the tool batch completed (after the hook answered) and, as its result, Gemini's text for a
 * hook's refusal: `Tool execution blocked: <reason>`, or `Agent execution stopped by hook: <reason>` when the hook
 * also ended the run. Each of toolgate's refusals is matched to one such call by tool name and input, in order:
 * for one tool and input, toolgate's refusals (those still in the session's record buffer) and the session file's
 * hook refusals at or after the first of them must be as many, else none of them is matched (another hook refused
 * the same call, or a refusal was evicted from the buffer or never written): a call that cannot be told stays
 * uncounted. A refusal whose recorded input was redacted (it held a secret) differs from the file's and stays
 * uncounted too, as does an MCP call (toolgate names it `mcp__<server>__<tool>`, the file does not).
 */

/** Gemini's result text for a call a BeforeTool hook refused (Gemini 0.61.0, its BeforeTool handling). */
const HOOK_REFUSAL = /^(?:Tool execution blocked|Agent execution stopped by hook): /;

interface FileRefusal {
  at: number;
  key: string;
  tokens: number;
}

/** the calls of a session file's text that a hook refused, in the file's order, with their request's tokens */
function fileRefusals(text: string): FileRefusal[] {
  const calls = new Map<string, { at: number; key: string; tokens: number }>();
  const refused: FileRefusal[] = [];
  const source: ReaderSource = {
    *lines() {
      for (const line of text.split("\n")) if (line !== "") yield line;
    },
    file: "",
    skip() {},
    fallbackAt: 0,
    fallbackSessionId: "",
  };
  for (const fact of geminiSession.read(source)) {
    if (fact.type === "call") {
      calls.set(fact.id, { at: fact.at, key: keyOf(fact.tool, fact.input), tokens: fact.tokens ?? 0 });
    } else if (fact.type === "result" && HOOK_REFUSAL.test(fact.text ?? "")) {
      const call = calls.get(fact.id);
      if (call !== undefined) refused.push(call);
    }
  }
  return refused;
}

function keyOf(tool: string, input: unknown): string {
  return `${tool}\n${canonicalJson(input ?? {})}`;
}

/**
 * Tokens per toolgate call id for toolgate's own refusals among `records` (the session's record buffer), matched to
 * the hook refusals of the session file's `text`. Only the ids in `wanted` are returned.
 */
export function ownRefusalTokens(options: {
  text: string;
  records: readonly DenialRecord[];
  wanted: readonly string[];
}): CallTokens {
  const wanted = new Set(options.wanted);
  const tokens: Record<string, number> = {};
  const own = new Map<string, DenialRecord[]>();
  for (const record of options.records) {
    if (!isOwnCallId(record.toolUseId) || record.source === "sandbox") continue;
    const key = keyOf(record.tool, record.input);
    own.set(key, [...(own.get(key) ?? []), record]);
  }
  if (![...own.values()].some((records) => records.some((record) => wanted.has(record.toolUseId)))) return tokens;
  const refused = fileRefusals(options.text);
  for (const [key, records] of own) {
    if (!records.some((record) => wanted.has(record.toolUseId))) continue;
    const from = Math.min(...records.map((record) => record.at));
    const matching = refused.filter((call) => call.key === key && call.at >= from);
    if (matching.length !== records.length) continue;
    // each refusal's call was recorded after the hook refused it; two at one time (one batch) cannot be told apart
    const times = matching.map((call) => call.at);
    if (new Set(times).size !== times.length) continue;
    if (records.some((record, index) => (times[index] as number) < record.at)) continue;
    records.forEach((record, index) => {
      if (wanted.has(record.toolUseId)) tokens[record.toolUseId] = (matching[index] as FileRefusal).tokens;
    });
  }
  return tokens;
}
