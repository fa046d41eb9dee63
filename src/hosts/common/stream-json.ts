import type { DenialSource } from "../../core/events.js";
import { asRecord, asString, contentText, parseObject, timeOf, typedRecord } from "./read-lines.js";
import type { ReaderFact, ReaderSource, SessionFact } from "./reader-event.js";
import { usageTokens } from "./usage-tokens.js";

/**
 * Headless `--output-format stream-json` of Claude Code (`claude -p ... --verbose`) and the hosts that copy
 * it: the same message shapes. Calls are `tool_use` blocks of `assistant` lines, results `tool_result` blocks of `user`
 * lines; Claude adds `tool_result_meta` (the structured verdict) and `system/permission_denied` lines.
 */
const DECISION_SOURCES: Readonly<Record<string, DenialSource>> = {
  rule: "rule",
  subcommandResults: "rule",
  workingDir: "rule",
  mode: "mode",
  classifier: "classifier",
  hook: "hook",
};

/** A sniff for a stream whose init line carries `versionKey`; `fallback` claims a log cut before its init line. */
export function sniffFor(versionKey: string, fallback: boolean) {
  return (head: readonly string[]) =>
    head.some((line) => {
      const record = parseObject(line);
      if (record === undefined) return false;
      if (record["type"] === "system" && record["subtype"] === "init") return versionKey in record;
      // a log cut before its init line: Claude's shape is the default
      return fallback && typeof record["session_id"] === "string" && "parent_tool_use_id" in record;
    });
}

/**
 * Reads one `stream-json` log of Claude Code's message shapes. `userLinesAreTurns`: a `user` line that
 * carries no tool result and is not marked `isSynthetic` is a person's prompt, so it starts a turn (the host writes
 * its prompts into the stream).
 *
 * The generator only hands lines to `StreamJsonLines` and yields what it found: a long-running generator is
 * compiled whole (with every function it inlines) each time the optimiser takes it up again, so its body is kept
 * small and the per-line work lives in a plain method (a compile of tens of ms instead of hundreds, repeated after
 * each deoptimisation while a run warms up).
 */
export function* readStreamJson(source: ReaderSource, options: { userLinesAreTurns: boolean }): Generator<ReaderFact> {
  const reader = new StreamJsonLines(source, options.userLinesAreTurns);
  const found: ReaderFact[] = [];
  for (const line of source.lines()) {
    if (line.length === 0) continue;
    reader.line(line, found);
    if (found.length === 0) continue;
    for (const fact of found) yield fact;
    found.length = 0;
  }
  if (reader.pending !== undefined) yield reader.pending;
}

class StreamJsonLines {
  private announced: string | undefined;
  // a line without its own time (`init`, `result`, `system` lines) takes the last time seen before it; the file's
  // mtime only until the first timed line (a copied log's mtime is when it was copied, not when the run ended)
  private lastAt: number | undefined;
  /** the session, announced at its first timed line (its `init` line has no time), or before its first fact */
  pending: SessionFact | undefined;
  private readonly structured = new Map<string, { source: DenialSource; reason: string }>();
  /** ids of the calls whose result the log holds: the `result` line's `permission_denials` adds only the others */
  private readonly answered = new Set<string>();

  constructor(
    private readonly source: ReaderSource,
    private readonly userLinesAreTurns: boolean,
  ) {}

  /** the facts of one non-empty line, pushed onto `found` in order */
  line(line: string, found: ReaderFact[]): void {
    const { source, structured, answered } = this;
    const typed = typedRecord(line, source);
    if (typed === undefined) return;
    const { record, type } = typed;
    const sessionId = asString(record["session_id"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], this.lastAt ?? source.fallbackAt);
    if (record["timestamp"] !== undefined) this.lastAt = at;
    const parent = asString(record["parent_tool_use_id"]);
    const agentId = asString(record["agent_id"]) ?? parent;
    const base = agentId === undefined ? { sessionId, at } : { sessionId, at, agentId };
    if (this.announced !== sessionId) {
      if (this.pending !== undefined) found.push(this.pending);
      this.announced = sessionId;
      this.pending = { type: "session", sessionId, at, interactive: false };
    }
    if (this.pending !== undefined && (record["timestamp"] !== undefined || type === "assistant" || type === "user")) {
      found.push({ ...this.pending, at });
      this.pending = undefined;
    }
    if (type === "system" && record["subtype"] === "permission_denied") {
      const id = asString(record["tool_use_id"]);
      const reasonType = asString(record["decision_reason_type"]);
      if (id !== undefined) {
        structured.set(id, {
          source: (reasonType === undefined ? undefined : DECISION_SOURCES[reasonType]) ?? "headless",
          reason: asString(record["message"]) ?? asString(record["decision_reason"]) ?? "",
        });
      }
      return;
    }
    if (type === "result") {
      for (const each of unansweredDenials(record["permission_denials"], answered, base)) found.push(each);
      return;
    }
    const message = asRecord(record["message"]);
    const content = message?.["content"];
    if (!Array.isArray(content)) return;
    if (type === "assistant") {
      for (const each of toolUseCalls(content, { base, tokens: usageTokens(message?.["usage"]) })) found.push(each);
      return;
    }
    if (type !== "user") return;
    const metas = Array.isArray(record["tool_result_meta"]) ? record["tool_result_meta"] : [];
    let sawResult = false;
    for (const block of content) {
      const result = asRecord(block);
      if (result?.["type"] !== "tool_result") continue;
      sawResult = true;
      const id = String(result["tool_use_id"]);
      answered.add(id);
      const text = contentText(result["content"]);
      const meta = metas.map(asRecord).find((entry) => entry?.["id"] === id);
      const denial = structured.get(id);
      structured.delete(id);
      const exit = /^Exit code (\d+)/.exec(text);
      found.push({
        type: "result",
        ...base,
        id,
        outcome: result["is_error"] === true ? "error" : "success",
        text,
        ...(exit === null ? {} : { exitCode: Number(exit[1]) }),
        ...(denial === undefined ? {} : { denial: { source: denial.source, reason: denial.reason || text } }),
        metadata: meta === undefined ? {} : { ...meta },
      });
    }
    // `isSynthetic`: a line the host wrote itself, such as Claude Code's note after a PermissionDenied hook's `retry`
    if (!sawResult && this.userLinesAreTurns && record["isSynthetic"] !== true) found.push({ type: "turn", ...base });
  }
}

/**
 * The refusals a `result` line lists in `permission_denials` whose result the log does not hold: a
 * `--output-format json` run (the `result` line is all it prints) or a log cut before the results. Each is a refused
 * call (the list names no source: the default, `rule`, applies); one whose result was read was classified there.
 */
function* unansweredDenials(
  list: unknown,
  answered: ReadonlySet<string>,
  base: { sessionId: string; at: number; agentId?: string },
): Generator<ReaderFact> {
  if (!Array.isArray(list)) return;
  for (const item of list) {
    const entry = asRecord(item);
    const id = asString(entry?.["tool_use_id"]);
    const tool = asString(entry?.["tool_name"]);
    if (entry === undefined || id === undefined || tool === undefined || answered.has(id)) continue;
    yield {
      type: "result",
      sessionId: base.sessionId,
      at: base.at,
      id,
      tool,
      input: entry["tool_input"] ?? {},
      outcome: "error",
      text: "",
      denial: {},
    };
  }
}

/**
 * The `call` facts of a Claude-shaped message's `tool_use` blocks, in order; the message's tokens are counted once,
 * on its first call. Claude Code's session files and every stream-json reader read calls this way.
 */
export function* toolUseCalls(
  content: readonly unknown[],
  options: { base: { sessionId: string; at: number; agentId?: string }; tokens: number },
): Generator<ReaderFact> {
  let tokens = options.tokens;
  for (const block of content) {
    const tool = asRecord(block);
    if (tool?.["type"] !== "tool_use") continue;
    yield {
      type: "call",
      ...options.base,
      id: String(tool["id"]),
      tool: String(tool["name"]),
      input: tool["input"],
      tokens,
    };
    tokens = 0;
  }
}
