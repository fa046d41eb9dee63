import { asRecord, asString, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { flatMembers, memberValue, objectLine } from "../common/skip-lines.js";
import { usageTokens } from "../common/usage-tokens.js";

/**
 * Gemini CLI session files (`~/.gemini/tmp/<project>/chats/session-*.jsonl`, 0.61): a header line with the
 * sessionId, then message records, appended again each time they change (`$set` lines carry whole message lists).
 * A `gemini` record's `toolCalls[]` holds the call and, once final, its `status` and `functionResponse`; each call
 * is emitted once, when its status is final.
 */
const FINAL = new Set(["success", "error", "cancelled"]);
const MAX_SEEN = 50_000;

export const geminiSession: TranscriptFormat = {
  id: "gemini-session",
  host: "gemini",
  headless: false,
  sniffOrder: 10,
  sniff(head) {
    const first = parseObject(head[0] ?? "");
    return first !== undefined && typeof first["sessionId"] === "string" && typeof first["projectHash"] === "string";
  },
  read: readGeminiSession,
};

/** The error (or output) a Gemini `functionResponse` carried back to the model. */
export function functionResponseText(result: unknown): { error?: string; output: string } {
  const parts = Array.isArray(result) ? result : [];
  for (const part of parts) {
    const response = asRecord(asRecord(asRecord(part)?.["functionResponse"])?.["response"]);
    if (response === undefined) continue;
    const error = asString(response["error"]);
    if (error !== undefined) return { error, output: error };
    return { output: asString(response["output"]) ?? JSON.stringify(response) };
  }
  return { output: "" };
}

/**
 * The project of a `<session_context>` message (the header names only a hash): its first workspace directory
 * (0.61: `- **Workspace Directories:**` then `  - /path`), or the older `I'm currently working in the directory: /path`.
 */
export function sessionContextProject(text: string): string | undefined {
  const workspace = /Workspace Directories:\**\s*\n\s*-\s*(\S[^\n]*)/.exec(text);
  const older = workspace ?? /currently working in the directory:\s*(\S[^\n]*)/.exec(text);
  return older?.[1]?.trim();
}

/** a `$set` line that only moves the session's last-updated time (a plain string value: no escape, no nesting) */
const LAST_UPDATED_ONLY = /^\{"\$set":\{"lastUpdated":"[^"\\{}[\]]*"\}\}$/;

/**
 * Whether a line of the announced session can yield anything (skip-lines.ts: a line that is one JSON object without
 * duplicate keys). Left unparsed: a `$set` of `lastUpdated` alone, and a `gemini` record without `toolCalls` (the
 * model's turn before its calls are final, written again with them). The names are tested as written: a line with a
 * `\u` escape anywhere, where a key could be spelled another way, is parsed.
 */
function mayYield(line: string): boolean {
  if (!objectLine(line) || line.includes("\\u")) return true;
  if (LAST_UPDATED_ONLY.test(line)) return false;
  return (
    memberValue(flatMembers(line), "type") !== "gemini" ||
    line.includes('"toolCalls"') ||
    line.includes('"$set"') ||
    line.includes('"projectHash"')
  );
}

async function* readGeminiSession(source: ReaderSource): AsyncGenerator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  let described = false;
  let prompted = false;
  const seen = new Set<string>();
  function* message(record: Record<string, unknown>): Generator<ReaderFact> {
    const at = timeOf(record["timestamp"], source.fallbackAt);
    const type = asString(record["type"]);
    if (type === "user") {
      const content = Array.isArray(record["content"]) ? record["content"] : [];
      const text = content.map((part) => asString(asRecord(part)?.["text"])).find((part) => part !== undefined);
      if (text?.startsWith("<session_context>") === true && !described) {
        described = true;
        const project = sessionContextProject(text);
        if (project !== undefined) yield { type: "session", sessionId, at, project };
      }
      if (text !== undefined && !text.startsWith("System:") && !text.startsWith("<session_context>")) {
        yield { type: "turn", sessionId, at };
        // the person's first prompt describes the session
        if (!prompted && text.trim() !== "") {
          prompted = true;
          yield { type: "session", sessionId, at, prompt: text };
        }
      }
      return;
    }
    if (type !== "gemini" || !Array.isArray(record["toolCalls"])) return;
    const final = record["toolCalls"].map(asRecord).filter((call) => FINAL.has(String(call?.["status"])));
    const fresh = final.filter((call) => !seen.has(String(call?.["id"])));
    let tokens = fresh.length === 0 ? 0 : Math.round(usageTokens(record["tokens"]) / fresh.length);
    for (const call of fresh) {
      if (call === undefined) continue;
      const id = String(call["id"]);
      if (seen.size >= MAX_SEEN) seen.clear();
      seen.add(id);
      const callAt = timeOf(call["timestamp"], at);
      const tool = String(call["name"]);
      yield { type: "call", sessionId, at: callAt, id, tool, input: call["args"], tokens };
      tokens = 0;
      const response = functionResponseText(call["result"]);
      const status = String(call["status"]);
      // a shell command that failed is still `success`; its output ends with `Exit Code: N`
      const exit = /\nExit Code: (-?\d+)/.exec(response.output);
      const exitCode = exit === null ? undefined : Number(exit[1]);
      yield {
        type: "result",
        sessionId,
        at: callAt,
        id,
        outcome: status === "success" && (exitCode === undefined || exitCode === 0) ? "success" : "error",
        ...(exitCode === undefined ? {} : { exitCode }),
        text: response.error ?? response.output,
        ...(status === "cancelled" ? { denial: { source: "user" as const, reason: "cancelled by the user" } } : {}),
      };
    }
  }
  for await (const line of source.lines((text) => !announced || mayYield(text))) {
    if (line.length === 0) continue;
    const record = parseObject(line);
    if (record === undefined) {
      source.skip();
      continue;
    }
    if (typeof record["sessionId"] === "string" && typeof record["projectHash"] === "string") {
      sessionId = record["sessionId"];
      if (!announced) {
        announced = true;
        yield { type: "session", sessionId, at: timeOf(record["startTime"], source.fallbackAt) };
      }
      continue;
    }
    if (!announced) {
      announced = true;
      yield { type: "session", sessionId, at: source.fallbackAt };
    }
    const set = asRecord(record["$set"]);
    if (set !== undefined) {
      if (Array.isArray(set["messages"])) {
        for (const entry of set["messages"]) {
          const entryRecord = asRecord(entry);
          if (entryRecord !== undefined) for (const each of message(entryRecord)) yield each;
        }
      }
      continue;
    }
    if (typeof record["type"] !== "string") {
      source.skip();
      continue;
    }
    for (const each of message(record)) yield each;
  }
}
