import { asRecord, asString, parseObject, timeOf, typedRecord } from "../common/read-lines.js";
import type { CallFact, ReaderFact, ReaderSource, TranscriptFormat } from "../common/reader-event.js";
import { headValueIndex } from "../common/skip-lines.js";
import { usageTokens } from "../common/usage-tokens.js";

/**
 * Codex rollout files (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`, 0.169). Calls are `response_item`
 * `function_call` / `custom_tool_call` payloads, results the matching `*_call_output`; a refusal is only text
 * (``exec_command failed: CreateProcess { message: "Rejected(...)" }``). A `token_usage_record` follows the
 * calls of the model response it paid for.
 */
export const codexRollout: TranscriptFormat = {
  id: "codex-rollout",
  host: "codex",
  headless: false,
  recordsMode: true,
  sniffOrder: 13,
  sniff(head) {
    return head.some((line) => {
      const record = parseObject(line);
      return record?.["type"] === "session_meta" && asRecord(record["payload"]) !== undefined;
    });
  },
  read: readCodexRollout,
};

/**
 * Codex 0.4x (2025) wrapped every command that exited non-zero inside its sandbox in this text, whatever the cause
 * (`rg` finding nothing, a shell syntax error): the command's own exit code and output say whether the sandbox refused
 * it, so they are what the result carries.
 */
const SANDBOX_WRAPPED =
  /^failed in sandbox \S+ with execution error: sandbox denied exec error, exit code: (-?\d+), stdout: ([\s\S]*?), stderr: ([\s\S]*)$/;

/**
 * `Process exited with code N` in an exec output, a JSON output's `metadata.exit_code`, or Codex 0.4x's sandbox
 * wrapper (`failed in sandbox ... exit code: N, stdout: ..., stderr: ...`).
 */
export function codexOutput(raw: unknown): { text: string; exitCode?: number } {
  let text = typeof raw === "string" ? raw : JSON.stringify(raw ?? "");
  let exitCode: number | undefined;
  const wrapped = text.startsWith("failed in sandbox ") ? SANDBOX_WRAPPED.exec(text) : null;
  if (wrapped !== null) {
    const output = [wrapped[2], wrapped[3]].filter((part) => part !== undefined && part.trim() !== "").join("\n");
    return { text: output, exitCode: Number(wrapped[1]) };
  }
  if (text.startsWith("{")) {
    const parsed = parseObject(text);
    const metadata = asRecord(parsed?.["metadata"]);
    if (typeof metadata?.["exit_code"] === "number") exitCode = metadata["exit_code"];
    const output = asString(parsed?.["output"]);
    if (output !== undefined) text = output;
  }
  const exit = /Process exited with code (-?\d+)/.exec(text.slice(0, 300));
  if (exit !== null) exitCode = Number(exit[1]);
  return exitCode === undefined ? { text } : { text, exitCode };
}

function parseArguments(raw: unknown): unknown {
  if (typeof raw !== "string") return raw;
  return parseObject(raw) ?? raw;
}

/**
 * Whether a line of a rollout already announced can hold a call, a result, usage, a turn or the session: the bulk
 * (`event_msg` progress, `turn_context`, `world_state`) is not parsed. A line that is not a whole JSON object or has
 * no `"type"` is still parsed (and counted as skipped when it does not parse), as before.
 */
const TYPE_OPENER = Buffer.from('"type":"');
/** the record types the reader reads whatever their payload, then the one it reads by its payload */
const READ_TYPES = ["response_item", "token_usage_record", "session_meta", "event_msg"].map((type) =>
  Buffer.from(type),
);
const EVENT_MSG = READ_TYPES.length - 1;
const TASK_STARTED = Buffer.from('"task_started"');

/**
 * Run on the raw bytes (not decoded when false); ASCII needles match the same in bytes as in text. A rollout line
 * names its record type among its first flat members (`{"timestamp":...,"type":"event_msg","payload":{`): read
 * there (skip-lines.ts `headValueIndex`), the test costs the line's head, not scans of the whole line. A line whose
 * head does not name its type as a string is parsed (and counted as skipped when it has none).
 */
function mayMatter(bytes: Buffer): boolean {
  if (bytes[0] !== 123 || bytes[bytes.length - 1] !== 125) return true;
  const type = headValueIndex(bytes, { opener: TYPE_OPENER, values: READ_TYPES });
  if (type === undefined) return true;
  // an event is read only when it starts a task (its `payload.type`): any event that names it anywhere is parsed
  return type === EVENT_MSG ? bytes.includes(TASK_STARTED) : type !== -1;
}

/** What a refusal line holds (lower case); a line without one is never a startup line to drop. */
const REFUSAL_WORDS = /operation not permitted|permission denied|read-only file system/i;
const MAX_STARTUP_LINES = 64;

/**
 * A shell's login profile can print a refusal before every command inside the sandbox (Homebrew's `shellenv` on
 * macOS: `.../shellenv.sh: line 18: /bin/ps: Operation not permitted`), successful ones too: those leading lines are
 * the shell starting, not the command being refused, so they are dropped from a failed command's output once a
 * command that succeeded printed them first.
 */
class StartupLines {
  private readonly lines = new Set<string>();
  learn(output: { text: string; exitCode?: number }): void {
    if (output.exitCode !== 0) return;
    for (const line of output.text.split("\n", 8)) {
      if (!REFUSAL_WORDS.test(line)) break;
      if (this.lines.size < MAX_STARTUP_LINES) this.lines.add(line);
    }
  }
  strip(output: { text: string; exitCode?: number }): { text: string; exitCode?: number } {
    if (this.lines.size === 0 || output.exitCode === 0) return output;
    const lines = output.text.split("\n");
    let start = 0;
    while (start < lines.length && this.lines.has(lines[start] as string)) start += 1;
    return start === 0 ? output : { ...output, text: lines.slice(start).join("\n") };
  }
}

/**
 * Whether a person could answer in the session a `session_meta` payload describes; undefined when it does not say.
 * `source` (Codex's `SessionSource`): `exec` is `codex exec` (headless), `cli` the terminal UI and `vscode` the IDE
 * extension (a person approves there); `mcp` (`codex mcp-server`: its client answers, person or program), a
 * `{"subagent": ...}` object and `unknown` do not say. A rollout without `source` (Codex 0.4x) is read by its
 * `originator`: `codex_exec` headless, `codex_cli_rs` (the terminal UI's default) and `codex_vscode` interactive, any
 * other name (an app-server client's own) unknown.
 */
function rolloutMode(payload: Record<string, unknown>): boolean | undefined {
  const source = payload["source"];
  if (source !== undefined) {
    if (source === "exec") return false;
    return source === "cli" || source === "vscode" ? true : undefined;
  }
  const originator = asString(payload["originator"]);
  if (originator === "codex_exec") return false;
  return originator === "codex_cli_rs" || originator === "codex_vscode" ? true : undefined;
}

function* readCodexRollout(source: ReaderSource): Generator<ReaderFact> {
  const startup = new StartupLines();
  let sessionId = source.fallbackSessionId;
  let interactive: boolean | undefined;
  let pending: CallFact[] = [];
  let announced = false;
  let project: string | undefined;
  let prompted = false;
  const flush = function* (tokens: number): Generator<ReaderFact> {
    const share = pending.length === 0 ? 0 : Math.round(tokens / pending.length);
    for (const call of pending) yield share > 0 ? { ...call, tokens: share } : call;
    pending = [];
  };
  for (const line of source.lines(undefined, (bytes) => !announced || mayMatter(bytes))) {
    if (line.length === 0) continue;
    const typed = typedRecord(line, source);
    if (typed === undefined) continue;
    const { record, type } = typed;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    const payload = asRecord(record["payload"]) ?? {};
    if (type === "session_meta") {
      sessionId = asString(payload["id"]) ?? asString(payload["session_id"]) ?? sessionId;
      interactive = rolloutMode(payload);
      project = asString(payload["cwd"]) ?? project;
      continue;
    }
    if (!announced) {
      announced = true;
      yield {
        type: "session",
        sessionId,
        at,
        ...(interactive === undefined ? {} : { interactive }),
        ...(project === undefined ? {} : { project }),
      };
    }
    if (type === "token_usage_record") {
      for (const each of flush(usageTokens(payload["usage"]))) yield each;
      continue;
    }
    if (type === "event_msg" && payload["type"] === "task_started") {
      for (const each of flush(0)) yield each;
      yield { type: "turn", sessionId, at };
      continue;
    }
    if (type !== "response_item") continue;
    const itemType = asString(payload["type"]);
    if (itemType === "function_call" || itemType === "custom_tool_call" || itemType === "local_shell_call") {
      const input =
        itemType === "function_call" ? parseArguments(payload["arguments"]) : (payload["input"] ?? payload["action"]);
      pending.push({
        type: "call",
        sessionId,
        at,
        id: String(payload["call_id"] ?? payload["id"]),
        tool: asString(payload["name"]) ?? itemType,
        input,
      });
      continue;
    }
    for (const each of flush(0)) yield each;
    if (itemType === "message" && !prompted) {
      // the person's first prompt describes the session (Codex's own context blocks start with a tag)
      const prompt = userPrompt(payload);
      if (prompt !== undefined) {
        prompted = true;
        yield { type: "session", sessionId, at, prompt };
      }
      continue;
    }
    if (itemType !== "function_call_output" && itemType !== "custom_tool_call_output") continue;
    const read = codexOutput(payload["output"]);
    startup.learn(read);
    const output = startup.strip(read);
    const failed =
      output.exitCode === undefined ? /\bfailed\b|\brejected\b/.test(output.text.slice(0, 500)) : output.exitCode !== 0;
    yield {
      type: "result",
      sessionId,
      at,
      id: String(payload["call_id"]),
      outcome: failed ? "error" : "success",
      ...output,
    };
  }
  for (const each of flush(0)) yield each;
}

/** The text of a user message a person wrote, or undefined (another role, or Codex's `<environment_context>` blocks). */
function userPrompt(payload: Record<string, unknown>): string | undefined {
  if (payload["role"] !== "user" || !Array.isArray(payload["content"])) return undefined;
  const text = payload["content"]
    .map((part) => asString(asRecord(part)?.["text"]) ?? "")
    .join("\n")
    .trim();
  return text === "" || text.startsWith("<") ? undefined : text;
}
