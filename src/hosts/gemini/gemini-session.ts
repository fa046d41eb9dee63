import { asRecord, asString, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { flatEnd, objectLine } from "../common/skip-lines.js";
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

const TYPE = '"type":"';
/** `{"$set":{"lastUpdated":"<a time>"}}`: a line JSON.parse surely reads as an object with nothing to take. */
const LAST_UPDATED = /^\{"\$set":\{"lastUpdated":"[\w:.+-]*"\}\}$/;

/**
 * Whether the reader must parse a line once the session is announced (the reader's `keep`, skip-lines.ts): not for a
 * `$set` of `lastUpdated` alone, nor for a `gemini` record without `toolCalls` or a `user` record without `text`
 * (a function response), which yield nothing. A line with a `\` (a key could be spelled with an escape), a `$set` or
 * a header's `projectHash` anywhere is parsed.
 */
export function geminiLineMatters(line: string): boolean {
  if (!objectLine(line)) return true;
  if (line.startsWith('{"$set":{"lastUpdated":"')) return !LAST_UPDATED.test(line);
  // the `type` among the top-level object's flat members (skip-lines.ts), found in place
  const at = line.indexOf(TYPE);
  if (at === -1 || at >= flatEnd(line, 1)) return true;
  const value = at + TYPE.length;
  const gemini = line.startsWith('gemini"', value);
  if (!gemini && !line.startsWith('user"', value)) return true;
  if (line.includes(gemini ? '"toolCalls"' : '"text"')) return true;
  return line.includes("\\") || line.includes('"$set"') || line.includes('"projectHash"');
}

function* readGeminiSession(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  let described = false;
  let prompted = false;
  const seen = new Set<string>();
  function* message(record: Record<string, unknown>): Generator<ReaderFact> {
    const type = record["type"];
    if (type === "user") {
      const content = record["content"];
      let text: string | undefined;
      if (Array.isArray(content)) {
        for (const part of content) {
          const value = asRecord(part)?.["text"];
          if (typeof value === "string") {
            text = value;
            break;
          }
        }
      }
      if (text === undefined) return;
      const at = timeOf(record["timestamp"], source.fallbackAt);
      if (text.startsWith("<session_context>")) {
        if (described) return;
        described = true;
        const project = sessionContextProject(text);
        if (project !== undefined) yield { type: "session", sessionId, at, project };
        return;
      }
      if (!text.startsWith("System:")) {
        yield { type: "turn", sessionId, at };
        // the person's first prompt describes the session
        if (!prompted && text.trim() !== "") {
          prompted = true;
          yield { type: "session", sessionId, at, prompt: text };
        }
      }
      return;
    }
    const calls = record["toolCalls"];
    if (type !== "gemini" || !Array.isArray(calls)) return;
    // the final calls not emitted yet (an id twice in one list is emitted twice, as before)
    const fresh: Record<string, unknown>[] = [];
    for (const each of calls) {
      const call = asRecord(each);
      if (call !== undefined && FINAL.has(String(call["status"])) && !seen.has(String(call["id"]))) fresh.push(call);
    }
    if (fresh.length === 0) return;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    let tokens = Math.round(usageTokens(record["tokens"]) / fresh.length);
    for (const call of fresh) {
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
  const keep = (line: string): boolean => !announced || geminiLineMatters(line);
  for (const line of source.lines(keep)) {
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
