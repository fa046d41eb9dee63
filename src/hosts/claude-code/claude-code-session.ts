import { asRecord, asString, contentText, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { toolUseCalls } from "../common/stream-json.js";
import { requestTokens } from "./claude-call-tokens.js";

/**
 * Claude Code session transcripts: `~/.claude/projects/<project>/<session>.jsonl` and the subagent files
 * `<session>/subagents/agent-*.jsonl` (same sessionId, `agentId`, `isSidechain:true`). A call is a `tool_use`
 * block of an assistant line; its result a `tool_result` block of a user line, with the structured verdict in
 * `toolDenialKind` and `permissionDecision` (2.1.330) and the text second.
 */
const KNOWN_TYPES = new Set([
  "user",
  "assistant",
  "summary",
  "queue-operation",
  "system",
  "attachment",
  "file-history-snapshot",
]);

export const claudeCodeSession: TranscriptFormat = {
  id: "claude-code-session",
  host: "claude-code",
  headless: false,
  // `entrypoint` (cli, sdk-cli, ...) since 2.0's successors; a 2.0 transcript has none: unknown, not headless
  recordsMode: true,
  sniffOrder: 12,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      if (record === undefined || "provenance" in record) return false;
      const type = asString(record["type"]);
      return typeof record["sessionId"] === "string" && type !== undefined && KNOWN_TYPES.has(type);
    });
  },
  read: readClaudeSession,
};

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const TYPE_KEY = Buffer.from('"type"');
const USER_TYPE = Buffer.from('"type":"user"');
const TOOL_USE = Buffer.from('"tool_use"');

/**
 * The byte-level twin of the first checks below: a whole JSON object with a record type but neither a tool block
 * nor a user message (most of a transcript's bytes: system prompts, assistant text, attachments) is ignored, so it
 * is not even decoded. ASCII needles match the same in the bytes as in the decoded text.
 */
function mayHoldCalls(bytes: Buffer): boolean {
  if (bytes[0] !== OPEN_BRACE || bytes[bytes.length - 1] !== CLOSE_BRACE || !bytes.includes(TYPE_KEY)) return true;
  return bytes.includes(USER_TYPE) || bytes.includes(TOOL_USE);
}

function* readClaudeSession(source: ReaderSource): Generator<ReaderFact> {
  let announced: string | undefined;
  let lastMessageId: string | undefined;
  let prompted = false;
  for (const line of source.lines(undefined, mayHoldCalls)) {
    if (line.length === 0) continue;
    if (line.charCodeAt(0) !== 123 || line.charCodeAt(line.length - 1) !== 125) {
      source.skip(); // not a JSON object: corrupt or truncated
      continue;
    }
    if (!line.includes('"type"')) {
      source.skip(); // no record type: unknown
      continue;
    }
    // lines without a tool block or a user message cannot matter (most of a transcript): skip parsing them
    if (!line.includes('"type":"user"') && !line.includes('"tool_use"')) continue;
    if (announced !== undefined) {
      const fast = successfulResults(line, source.fallbackAt);
      if (fast !== undefined) {
        for (const each of fast) yield each;
        continue;
      }
    }
    const typed = typedRecord(line, source);
    if (typed === undefined) continue;
    const { record, type } = typed;
    if (type !== "user" && type !== "assistant") continue;
    const sessionId = asString(record["sessionId"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    const agentId = record["isSidechain"] === true ? asString(record["agentId"]) : undefined;
    const base = agentId === undefined ? { sessionId, at } : { sessionId, at, agentId };
    if (announced !== sessionId) {
      announced = sessionId;
      const entrypoint = asString(record["entrypoint"]);
      const project = asString(record["cwd"]);
      yield {
        type: "session",
        ...base,
        ...(entrypoint === undefined ? {} : { interactive: entrypoint === "cli" }),
        ...(project === undefined ? {} : { project }),
      };
    }
    const message = asRecord(record["message"]);
    const content = message?.["content"];
    if (type === "assistant") {
      if (!Array.isArray(content)) continue;
      // a message split over several lines carries its usage on each: counted on its first line only
      const { messageId, tokens } = requestTokens(message, lastMessageId);
      lastMessageId = messageId;
      for (const each of toolUseCalls(content, { base, tokens })) yield each;
      continue;
    }
    if (typeof content === "string") {
      // `<system-reminder>`, `<task-notification>`, `<command-name>`: the host speaking, not a person
      if (record["isMeta"] !== true && !/^<[a-z-]+>/.test(content)) {
        yield { type: "turn", ...base };
        // the person's first prompt describes the session (a subagent's first message is its task, not a prompt)
        if (!prompted && agentId === undefined) {
          prompted = true;
          yield { type: "session", ...base, prompt: content };
        }
      }
      continue;
    }
    if (!Array.isArray(content)) continue;
    let sawResult = false;
    for (const block of content) {
      const result = asRecord(block);
      if (result?.["type"] !== "tool_result") continue;
      sawResult = true;
      const text = contentText(result["content"]);
      const isError = result["is_error"] === true;
      const exit = /^Exit code (\d+)/.exec(text);
      const metadata: Record<string, unknown> = {};
      const decision = asRecord(record["permissionDecision"]);
      if (decision !== undefined) {
        metadata["permission_decision"] = {
          decision: decision["decision"],
          source: decision["source"],
          reason_type: decision["reasonType"],
        };
      }
      const kind = asString(record["toolDenialKind"]);
      if (kind !== undefined) metadata["non_execution_kind"] = kind;
      yield {
        type: "result",
        ...base,
        id: String(result["tool_use_id"]),
        outcome: isError ? "error" : "success",
        text,
        ...(exit === null ? {} : { exitCode: Number(exit[1]) }),
        metadata,
      };
    }
    if (!sawResult && record["isMeta"] !== true && !/^\[Request interrupted/.test(contentText(content))) {
      yield { type: "turn", ...base };
      if (!prompted && agentId === undefined) {
        prompted = true;
        yield { type: "session", ...base, prompt: contentText(content) };
      }
    }
  }
}

const SESSION_ID = /"sessionId":"([^"\\]+)"/;
const TIMESTAMP = /"timestamp":"([^"\\]+)"/;
const AGENT_ID = /"agentId":"([^"\\]+)"/;
const TOOL_USE_ID = /"tool_use_id":"([^"\\]+)"/g;

/**
 * The fast path for the bulk of a transcript: a user line that only carries successful tool results (no error
 * flag, no permission verdict) needs its ids, not its (often large) output, so it is read without JSON.parse.
 * Keys appear unescaped only as keys, never inside string values. Undefined when the line needs the full parse.
 */
function successfulResults(line: string, fallbackAt: number): ReaderFact[] | undefined {
  if (!line.includes('"type":"tool_result"') || line.includes('"tool_use"') || line.includes('"is_error":true')) {
    return undefined;
  }
  if (line.includes('"toolDenialKind"') || line.includes('"permissionDecision"') || !line.startsWith('{"'))
    return undefined;
  const sessionId = SESSION_ID.exec(line)?.[1];
  if (sessionId === undefined) return undefined;
  const at = timeOf(TIMESTAMP.exec(line)?.[1], fallbackAt);
  const agentId = line.includes('"isSidechain":true') ? AGENT_ID.exec(line)?.[1] : undefined;
  const facts: ReaderFact[] = [];
  for (const match of line.matchAll(TOOL_USE_ID)) {
    const id = match[1] as string;
    facts.push({
      type: "result",
      sessionId,
      at,
      id,
      outcome: "success",
      text: "",
      ...(agentId === undefined ? {} : { agentId }),
    });
  }
  return facts.length === 0 ? undefined : facts;
}
