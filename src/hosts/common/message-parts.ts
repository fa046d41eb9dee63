import { FlatMembers, NumberMembers, objectOpener, stringMemberText, stringOpener } from "./line-members.js";
import { asRecord, asString, parseObject, timeOf } from "./read-lines.js";
import type { ReaderFact, ReaderSource, ResultFact } from "./reader-event.js";
import { usageTokens } from "./usage-tokens.js";

/** the slots of one pending call in `PartSteps`' flat buffer: session, time, id, tool, input, result */
const SLOTS = 6;

/**
 * Message parts, as both a SQLite `part` table and a `run --format json` log hold them: the shape of one host and of
 * the host that forked it, each in its own database and its own log (their formats name them and their versions). A
 * `tool` part in a final state (`completed`, `error`) is one call and its result; the `step-finish` part after it
 * carries the tokens of the model step that made the calls.
 */
export class PartSteps {
  /** the calls of the current step, `SLOTS` entries each (no object per call until its facts are made) */
  private pending: unknown[] = [];

  /** whether a call waits for its step's usage (a part other than a tool part yields facts only then) */
  get hasPending(): boolean {
    return this.pending.length > 0;
  }

  /** facts for one part (buffered until the step's usage is known) */
  *part(options: { part: Record<string, unknown>; sessionId: string; at: number }): Generator<ReaderFact> {
    const out: ReaderFact[] = [];
    this.partInto(options, out);
    yield* out;
  }

  *flush(tokens: number): Generator<ReaderFact> {
    const out: ReaderFact[] = [];
    this.flushInto(tokens, out);
    yield* out;
  }

  /** `part`, the facts pushed onto `out` */
  partInto(options: { part: Record<string, unknown>; sessionId: string; at: number }, out: ReaderFact[]): void {
    const { part, sessionId, at } = options;
    const type = asString(part["type"]);
    if (type !== "tool") {
      this.flushInto(type === "step-finish" ? usageTokens(part["tokens"]) : 0, out);
      return;
    }
    const state = asRecord(part["state"]) ?? {};
    const status = asString(state["status"]);
    if (status !== "completed" && status !== "error") return;
    const id = asString(part["callID"]) ?? asString(part["id"]) ?? `${sessionId}-${at}`;
    const tool = asString(part["tool"]) ?? "unknown";
    const metadata = asRecord(state["metadata"]);
    const exit = typeof metadata?.["exit"] === "number" ? metadata["exit"] : undefined;
    const time = asRecord(state["time"]);
    const callAt = typeof time?.["start"] === "number" ? time["start"] : at;
    const resultAt = typeof time?.["end"] === "number" ? time["end"] : callAt;
    const outcome = status === "completed" && (exit === undefined || exit === 0) ? "success" : "error";
    const text = status === "error" ? (asString(state["error"]) ?? "") : (asString(state["output"]) ?? "");
    const result: ResultFact =
      exit === undefined
        ? { type: "result", sessionId, at: resultAt, id, outcome, text }
        : { type: "result", sessionId, at: resultAt, id, outcome, text, exitCode: exit };
    this.pending.push(sessionId, callAt, id, tool, state["input"], result);
  }

  /** `flush`, the facts pushed onto `out`: each call (with its share of the step's tokens) and its result */
  flushInto(tokens: number, out: ReaderFact[]): void {
    const pending = this.pending;
    if (pending.length === 0) return;
    const share = Math.round(tokens / (pending.length / SLOTS));
    for (let index = 0; index < pending.length; index += SLOTS) {
      const sessionId = pending[index] as string;
      const at = pending[index + 1] as number;
      const id = pending[index + 2] as string;
      const tool = pending[index + 3] as string;
      const input = pending[index + 4];
      out.push(
        share > 0
          ? { type: "call", sessionId, at, id, tool, input, tokens: share }
          : { type: "call", sessionId, at, id, tool, input },
        pending[index + 5] as ResultFact,
      );
    }
    this.pending = [];
  }
}

/** a `run --format json` log of message parts: one `{type, timestamp, sessionID, part}` line each */
export function isPartsRunLine(line: string): boolean {
  const record = parseObject(line);
  return record !== undefined && typeof record["sessionID"] === "string" && asRecord(record["part"]) !== undefined;
}

const PART = objectOpener("part");
const TOKENS = objectOpener("tokens");
const TYPE = stringOpener("type");

/**
 * What a run line of the announced session does, read from its text (line-members.ts) without parsing it: the
 * tokens of the step its part ends (a part other than a tool part flushes the pending calls: a `step-finish` part
 * with its tokens, any other with 0), or undefined when the line must be parsed (a tool part, another session, a
 * line whose part's type or tokens are not flat members). Needs `{...,"sessionID":"<announced>",...,"part":{` with
 * the session among the line's flat members and the part its first nested value, and the part's `type` among its
 * own; for a `step-finish` part, `"tokens":{` as the part's first nested value, whose number members are read
 * (`NumberMembers`).
 */
export class RunLineReader {
  private readonly members = new FlatMembers();
  private readonly numbers = new NumberMembers();
  /** `"sessionID":"<announced>"`; undefined: every line is parsed */
  private session: string | undefined;

  /** the session whose lines are read from their text (undefined: none) */
  announce(sessionId: string | undefined): void {
    this.session = sessionId === undefined ? undefined : stringMemberText("sessionID", sessionId);
  }

  tokens(line: string): number | undefined {
    const { members, session } = this;
    if (session === undefined || !members.top(line) || !members.holds(session) || !members.enter(PART)) {
      return undefined;
    }
    const type = members.valueStart(TYPE);
    if (type === -1 || line.startsWith('tool"', type)) return undefined;
    if (!line.startsWith('step-finish"', type)) {
      // another type, when it is a whole string among the part's flat members
      const close = line.indexOf('"', type);
      return close !== -1 && close < members.end ? 0 : undefined;
    }
    if (!members.endsWithObject(TOKENS)) return undefined;
    const usage = this.numbers.read(line, members.end);
    return usage === undefined ? undefined : usageTokens(usage);
  }
}

/**
 * Reads a `run --format json` log of message parts. Lines of the announced session whose part is not a tool part are
 * read from their text (`RunLineReader`); those that would yield nothing (no call pending: a `step_start`, a `text`
 * part) are not even handed over by `source.lines` (its `keep`).
 */
export function* readPartsRun(source: ReaderSource): Generator<ReaderFact> {
  const steps = new PartSteps();
  const out: ReaderFact[] = [];
  let announced: string | undefined;
  const reader = new RunLineReader();
  // what `keep` read from the line it let through last (the line the loop gets next)
  let readLine: string | undefined;
  let readTokens: number | undefined;
  const keep = (line: string): boolean => {
    const tokens = reader.tokens(line);
    // a flush with nothing pending yields nothing, whatever the tokens
    if (tokens !== undefined && !steps.hasPending) return false;
    readLine = line;
    readTokens = tokens;
    return true;
  };
  for (const line of source.lines(keep)) {
    if (line.length === 0) continue;
    const tokens = line === readLine ? readTokens : reader.tokens(line);
    readLine = undefined;
    if (tokens !== undefined) {
      steps.flushInto(tokens, out);
    } else {
      const record = parseObject(line);
      const part = record === undefined ? undefined : asRecord(record["part"]);
      if (record === undefined || part === undefined) {
        // `run` also prints `! permission requested: ...; auto-rejecting` outside the JSON
        if (!line.startsWith("! permission requested")) source.skip();
        continue;
      }
      const sessionId = asString(record["sessionID"]) ?? source.fallbackSessionId;
      const at = timeOf(record["timestamp"], source.fallbackAt);
      if (announced !== sessionId) {
        steps.flushInto(0, out);
        announced = sessionId;
        reader.announce(sessionId);
        out.push({ type: "session", sessionId, at, interactive: false });
      }
      steps.partInto({ part, sessionId, at }, out);
    }
    if (out.length === 0) continue;
    for (const fact of out) yield fact;
    out.length = 0;
  }
  steps.flushInto(0, out);
  for (const fact of out) yield fact;
}
