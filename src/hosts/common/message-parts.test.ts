import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { eachLineReplaced, type InMemoryRead, readInMemory } from "../../../test/support/read-in-memory.js";
import { readPartsRun } from "./message-parts.js";
import { asRecord, asString, parseObject, timeOf } from "./read-lines.js";
import type { CallFact, ReaderFact, ReaderSource, ResultFact } from "./reader-event.js";
import { usageTokens } from "./usage-tokens.js";

/**
 * `readPartsRun` reads the lines of the announced session whose part is not a tool part from their text (without
 * `JSON.parse`) and leaves those that yield nothing unread: differential tests against the plain reader it replaced
 * (every line parsed, below), on every recorded run log, on lines built to fool a test on text, and on generated logs.
 */

/** The reader as it was: every line parsed, a part's facts through generators. */
function* plainReadPartsRun(source: ReaderSource): Generator<ReaderFact> {
  let pending: [CallFact, ResultFact][] = [];
  function* flush(tokens: number): Generator<ReaderFact> {
    const share = pending.length === 0 ? 0 : Math.round(tokens / pending.length);
    for (const [call, result] of pending) {
      yield share > 0 ? { ...call, tokens: share } : call;
      yield result;
    }
    pending = [];
  }
  let announced: string | undefined;
  for (const line of source.lines()) {
    if (line.length === 0) continue;
    const record = parseObject(line);
    const part = record === undefined ? undefined : asRecord(record["part"]);
    if (record === undefined || part === undefined) {
      if (!line.startsWith("! permission requested")) source.skip();
      continue;
    }
    const sessionId = asString(record["sessionID"]) ?? source.fallbackSessionId;
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (announced !== sessionId) {
      yield* flush(0);
      announced = sessionId;
      yield { type: "session", sessionId, at, interactive: false };
    }
    const type = asString(part["type"]);
    if (type === "tool") {
      const state = asRecord(part["state"]) ?? {};
      const status = asString(state["status"]);
      if (status !== "completed" && status !== "error") continue;
      const id = asString(part["callID"]) ?? asString(part["id"]) ?? `${sessionId}-${at}`;
      const tool = asString(part["tool"]) ?? "unknown";
      const metadata = asRecord(state["metadata"]);
      const exit = typeof metadata?.["exit"] === "number" ? metadata["exit"] : undefined;
      const time = asRecord(state["time"]);
      const callAt = typeof time?.["start"] === "number" ? time["start"] : at;
      pending.push([
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
      continue;
    }
    yield* flush(type === "step-finish" ? usageTokens(part["tokens"]) : 0);
  }
  yield* flush(0);
}

/** The facts and skipped lines of the reader, with and without `keep`, against the plain reader's. */
async function expectSame(lines: readonly string[], label: string): Promise<InMemoryRead> {
  const plain = await readInMemory(plainReadPartsRun, { lines, useKeep: false });
  const expected = JSON.stringify({ facts: plain.facts, skipped: plain.skipped });
  const kept = await readInMemory(readPartsRun, { lines, useKeep: true });
  expect(JSON.stringify({ facts: kept.facts, skipped: kept.skipped }), label).toBe(expected);
  const every = await readInMemory(readPartsRun, { lines, useKeep: false });
  expect(JSON.stringify({ facts: every.facts, skipped: every.skipped }), label).toBe(expected);
  return kept;
}

const fixtures = resolve("test/fixtures/transcripts");
const runLogs = ["opencode", "kilo"].flatMap((host) =>
  readdirSync(join(fixtures, host))
    .filter((name) => name.endsWith(".run.jsonl"))
    .map((name) => join(fixtures, host, name)),
);

/** The same object on one line with a space after every `:` and `,` (valid JSON, not what the hosts write). */
function spaced(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n */g, " ");
}

/** Variants of one run line built to fool a test on its text. */
function variants(line: string): string[] {
  const record = JSON.parse(line) as Record<string, unknown>;
  const part = (asRecord(record["part"]) ?? {}) as Record<string, unknown>;
  const out = [
    spaced(record),
    // names spelled with an escape
    ...["type", "sessionID", "part", "tokens", "step-finish", "tool", "input", "output"].map((name) =>
      line.replaceAll(`"${name}"`, `"\\u00${name.charCodeAt(0).toString(16)}${name.slice(1)}"`),
    ),
    // the names, quoted, inside strings
    JSON.stringify({ note: `"type":"step-finish" "sessionID":"x" "part":{ "tokens":{"input":5}`, ...record }),
    JSON.stringify({ ...record, part: { note: `"type":"text","tokens":{"input":9}}`, ...part } }),
    // the session or the part's type nested, moved after a nested value, or of another kind
    JSON.stringify({ nested: { sessionID: record["sessionID"] }, ...record }),
    JSON.stringify({ ...record, part: { nested: { type: "step-finish" }, ...part } }),
    JSON.stringify({ ...record, part: { ...part, type: 7 } }),
    JSON.stringify({ ...record, part: { ...part, type: "tool" } }),
    JSON.stringify({ ...record, part: { ...part, type: "step-finish" } }),
    JSON.stringify({ ...record, part: { type: part["type"], inner: { a: 1 }, ...part } }),
    JSON.stringify({ ...record, sessionID: `${String(record["sessionID"])}-other` }),
    JSON.stringify({ ...record, sessionID: 7 }),
    JSON.stringify({ part, ...record }),
    JSON.stringify({ ...record, part: [part] }),
    JSON.stringify({ ...record, part: null }),
    // tokens of every shape
    ...[
      { input: 1.5, output: -3, reasoning: 1e21 },
      { input: "5", output: null, reasoning: true, total: 40 },
      { cache: { read: 1 }, input: 7, nested: [1, { input: 100 }], output: 2 },
      { input: 0, output: 0, total_tokens: 12, total: 13 },
      { "in}put": 5, input: 1, "a{b": "c}", output: 0.1 },
      {},
      7,
      "many",
    ].map((tokens) => JSON.stringify({ ...record, part: { ...part, tokens } })),
    // numerals past 2^53, as JSON.parse rounds them
    JSON.stringify({ ...record, part: { ...part, type: "step-finish", tokens: { input: 1, output: 2 } } }).replace(
      '"tokens":{"input":1,"output":2',
      '"tokens":{"input":12345678901234567,"output":9007199254740993,"reasoning":1234567890123456',
    ),
    // a numeral JSON does not allow, in the tokens read from the text (a line that is not JSON elsewhere is taken for
    // the object it looks like when it begins with `{` and ends with `}`: skip-lines.ts)
    JSON.stringify({ ...record, part: { ...part, type: "step-finish", tokens: { input: 1, output: 2 } } }).replace(
      '"tokens":{"input":1',
      '"tokens":{"input":01',
    ),
    // cut short: a line that still ends with `}` is taken for the object it looks like (skip-lines.ts), these do not
    ...[line.slice(0, -1), line.slice(0, -2), line.slice(0, Math.floor(line.length / 2))].filter(
      (cut) => !cut.endsWith("}"),
    ),
  ];
  return out;
}

describe("readPartsRun reads non-tool lines from their text as the plain reader reads them", () => {
  test("on every recorded run log: the same facts and skipped lines, and lines left unread", async () => {
    expect(runLogs.length).toBeGreaterThanOrEqual(8);
    let total = 0;
    let kept = 0;
    for (const file of runLogs) {
      const lines = readFileSync(file, "utf8").split(/\r?\n/);
      const result = await expectSame(lines, file);
      total += lines.filter((line) => line.length > 0).length;
      kept += result.kept;
    }
    // the step_start lines (and text parts with nothing pending) are not handed over
    expect(kept).toBeLessThan(total * 0.8);
  });

  test("on lines built to fool the test on text, in place of each recorded line and before it", async () => {
    const cases = await eachLineReplaced(runLogs.slice(0, 4), { variants, expectSame });
    expect(cases).toBeGreaterThan(1000);
  }, 120_000);

  test("on generated run logs (sessions, part types, tokens, key orders, odd lines)", async () => {
    const json = fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.string(),
      fc.constant(null),
      fc.boolean(),
      fc.dictionary(fc.constantFrom("a", "input", "read"), fc.integer(), { maxKeys: 2 }),
    );
    const tokens = fc.oneof(
      fc.dictionary(
        fc.constantFrom("input", "output", "reasoning", "total", "total_tokens", "input_tokens", "cache", "x"),
        json,
      ),
      json,
    );
    const part = fc.record(
      {
        type: fc.constantFrom("step-start", "step-finish", "text", "tool", "reasoning", 7),
        tokens,
        text: fc.string(),
        callID: fc.constantFrom("call_1", "call_2", "call_3"),
        tool: fc.constantFrom("bash", "read"),
        state: fc.record(
          {
            status: fc.constantFrom("completed", "error", "running"),
            input: json,
            output: fc.string(),
            error: fc.string(),
            metadata: fc.record({ exit: fc.constantFrom(0, 1, "1") }, { requiredKeys: [] }),
            time: fc.record({ start: fc.integer(), end: fc.integer() }, { requiredKeys: [] }),
          },
          { requiredKeys: ["status"] },
        ),
        sessionID: fc.constantFrom("ses_a", "ses_b"),
      },
      { requiredKeys: ["type"] },
    );
    const line = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .record(
            {
              type: fc.constantFrom("step_start", "step_finish", "tool_use", "text"),
              timestamp: fc.oneof(fc.integer({ min: 0, max: 2e12 }), fc.constant("2026-11-27T12:51:54.608Z")),
              sessionID: fc.oneof(fc.constantFrom("ses_a", "ses_b", 'ses_"q', "ses_\\b"), fc.constant(7)),
              part,
            },
            { requiredKeys: ["part"] },
          )
          .chain((record) =>
            fc
              .shuffledSubarray(Object.keys(record), { minLength: Object.keys(record).length })
              .map((order) => JSON.stringify(Object.fromEntries(order.map((key) => [key, record[key as "part"]])))),
          ),
      },
      { weight: 1, arbitrary: fc.constantFrom("! permission requested: bash; auto-rejecting", "", "not json", "{}") },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 24 }), async (lines) => {
        await expectSame(lines, lines.join("\n"));
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
