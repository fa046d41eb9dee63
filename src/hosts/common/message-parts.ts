import { asRecord, asString, parseObject, timeOf } from "./read-lines.js";
import type { CallFact, ReaderFact, ReaderSource, ResultFact } from "./reader-event.js";
import { usageTokens } from "./usage-tokens.js";

/**
 * Message parts, as both a SQLite `part` table and a `run --format json` log hold them: the shape of one host and of
 * the host that forked it, each in its own database and its own log (their formats name them and their versions). A
 * `tool` part in a final state (`completed`, `error`) is one call and its result; the `step-finish` part after it
 * carries the tokens of the model step that made the calls.
 */
export class PartSteps {
  private pending: [CallFact, ResultFact][] = [];

  /** facts for one part (buffered until the step's usage is known) */
  *part(options: { part: Record<string, unknown>; sessionId: string; at: number }): Generator<ReaderFact> {
    const { part, sessionId, at } = options;
    const type = asString(part["type"]);
    if (type === "tool") {
      const state = asRecord(part["state"]) ?? {};
      const status = asString(state["status"]);
      if (status !== "completed" && status !== "error") return;
      const id = asString(part["callID"]) ?? asString(part["id"]) ?? `${sessionId}-${at}`;
      const tool = asString(part["tool"]) ?? "unknown";
      const metadata = asRecord(state["metadata"]);
      const exit = typeof metadata?.["exit"] === "number" ? metadata["exit"] : undefined;
      const time = asRecord(state["time"]);
      const callAt = typeof time?.["start"] === "number" ? time["start"] : at;
      this.pending.push([
        { type: "call", sessionId, at: callAt, id, tool, input: state["input"] },
        {
          type: "result",
          sessionId,
          at: typeof time?.["end"] === "number" ? time["end"] : callAt,
          id,
          outcome: status === "completed" && (exit === undefined || exit === 0) ? "success" : "error",
          text: status === "error" ? (asString(state["error"]) ?? "") : (asString(state["output"]) ?? ""),
          ...(exit === undefined ? {} : { exitCode: exit }),
        },
      ]);
      return;
    }
    yield* this.flush(type === "step-finish" ? usageTokens(part["tokens"]) : 0);
  }

  *flush(tokens: number): Generator<ReaderFact> {
    const share = this.pending.length === 0 ? 0 : Math.round(tokens / this.pending.length);
    for (const [call, result] of this.pending) {
      yield share > 0 ? { ...call, tokens: share } : call;
      yield result;
    }
    this.pending = [];
  }
}

/** a `run --format json` log of message parts: one `{type, timestamp, sessionID, part}` line each */
export function isPartsRunLine(line: string): boolean {
  const record = parseObject(line);
  return record !== undefined && typeof record["sessionID"] === "string" && asRecord(record["part"]) !== undefined;
}

/** Reads a `run --format json` log of message parts. */
export async function* readPartsRun(source: ReaderSource): AsyncGenerator<ReaderFact> {
  const steps = new PartSteps();
  let announced: string | undefined;
  for await (const line of source.lines()) {
    if (line.length === 0) continue;
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
      for (const each of steps.flush(0)) yield each;
      announced = sessionId;
      yield { type: "session", sessionId, at, interactive: false };
    }
    for (const each of steps.part({ part, sessionId, at })) yield each;
  }
  for (const each of steps.flush(0)) yield each;
}
