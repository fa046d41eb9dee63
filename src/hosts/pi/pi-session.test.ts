import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { eachLineReplaced, type InMemoryRead, readInMemory } from "../../../test/support/read-in-memory.js";
import { asRecord, asString, contentText, parseObject, timeOf } from "../common/read-lines.js";
import type { ReaderFact, ReaderSource } from "../common/reader-event.js";
import { usageTokens } from "../common/usage-tokens.js";
import { piSession } from "./pi-session.js";

/**
 * The pi reader leaves lines that yield nothing unread and reads user messages from their text (without
 * `JSON.parse`): differential tests against the plain reader (every line parsed, below), on the recorded session and
 * `--mode json` files, on lines built to fool a test on text, and on generated sessions.
 */

/** The reader as it was, without its test on text: every line parsed. */
function* plainReadPiSession(source: ReaderSource): Generator<ReaderFact> {
  let sessionId = source.fallbackSessionId;
  let announced = false;
  for (const line of source.lines()) {
    if (line.length === 0) continue;
    const record = parseObject(line);
    if (record === undefined || typeof record["type"] !== "string") {
      source.skip();
      continue;
    }
    const at = timeOf(record["timestamp"], source.fallbackAt);
    if (record["type"] === "session") {
      if (typeof record["id"] === "string") sessionId = record["id"];
      if (!announced) {
        announced = true;
        yield { type: "session", sessionId, at };
      }
      continue;
    }
    if (!announced) {
      announced = true;
      yield { type: "session", sessionId, at: source.fallbackAt };
    }
    if (record["type"] !== "message" && record["type"] !== "message_end") continue;
    const message = asRecord(record["message"]);
    const role = asString(message?.["role"]);
    if (message === undefined || role === undefined) {
      source.skip();
      continue;
    }
    if (role === "user") {
      yield { type: "turn", sessionId, at };
    } else if (role === "assistant" && Array.isArray(message["content"])) {
      const calls = message["content"].map(asRecord).filter((block) => block?.["type"] === "toolCall");
      let tokens = calls.length === 0 ? 0 : usageTokens(message["usage"]);
      for (const call of calls) {
        const id = asString(call?.["id"]);
        const tool = asString(call?.["name"]);
        if (id === undefined || tool === undefined) continue;
        yield { type: "call", sessionId, at, id, tool, input: call?.["arguments"] ?? {}, tokens };
        tokens = 0;
      }
    } else if (role === "toolResult") {
      const id = asString(message["toolCallId"]);
      if (id === undefined) continue;
      const tool = asString(message["toolName"]);
      yield {
        type: "result",
        sessionId,
        at,
        id,
        ...(tool === undefined ? {} : { tool }),
        outcome: message["isError"] === true ? "error" : "success",
        text: contentText(message["content"]),
      };
    }
  }
}

async function expectSame(lines: readonly string[], label: string): Promise<InMemoryRead> {
  const plain = await readInMemory(plainReadPiSession, { lines, useKeep: false });
  const expected = JSON.stringify({ facts: plain.facts, skipped: plain.skipped });
  const kept = await readInMemory(piSession.read, { lines, useKeep: true });
  expect(JSON.stringify({ facts: kept.facts, skipped: kept.skipped }), label).toBe(expected);
  const every = await readInMemory(piSession.read, { lines, useKeep: false });
  expect(JSON.stringify({ facts: every.facts, skipped: every.skipped }), label).toBe(expected);
  return kept;
}

const folder = resolve("test/fixtures/transcripts/pi");
const files = readdirSync(folder)
  .filter((name) => name.endsWith(".jsonl"))
  .map((name) => join(folder, name));

function spaced(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n */g, " ");
}

/** Variants of one pi line built to fool a test on its text. */
function variants(line: string): string[] {
  const record = JSON.parse(line) as Record<string, unknown>;
  const message = (asRecord(record["message"]) ?? {}) as Record<string, unknown>;
  const withMessage = (changes: Record<string, unknown>) =>
    JSON.stringify({ ...record, message: { ...message, ...changes } });
  const out = [
    spaced(record),
    ...["type", "message", "role", "user", "assistant", "toolCall", "id", "timestamp", "session"].map((name) =>
      line.replaceAll(`"${name}"`, `"\\u00${name.charCodeAt(0).toString(16)}${name.slice(1)}"`),
    ),
    JSON.stringify({ note: `"type":"model_change" "role":"system" "id":"x"`, ...record }),
    JSON.stringify({ nested: { type: "model_change", message: { role: "system" } }, ...record }),
    JSON.stringify({ ...record, type: "model_change" }),
    JSON.stringify({ ...record, type: "message" }),
    JSON.stringify({ ...record, type: "session" }),
    JSON.stringify({ ...record, type: 7 }),
    JSON.stringify({ ...record, id: "01a21d0f-f141-719e-b8ce-6b434abf0451" }),
    JSON.stringify({ ...record, id: "another-session" }),
    JSON.stringify({ ...record, timestamp: 1795783914771 }),
    JSON.stringify({ ...record, timestamp: "not a time" }),
    JSON.stringify({ message: record["message"], ...record }),
    JSON.stringify({ ...record, message: [message] }),
    JSON.stringify({ ...record, message: null }),
    withMessage({ role: "user" }),
    withMessage({ role: "system" }),
    withMessage({ role: "assistant" }),
    withMessage({ role: "assistant", content: [{ type: "text", text: "toolCall" }] }),
    withMessage({ role: "assistant", content: [{ type: "toolCall", id: "c1", name: "bash", arguments: {} }] }),
    withMessage({ role: 7 }),
    JSON.stringify({ ...record, message: { nested: { role: "system" }, ...message } }),
    JSON.stringify({ ...record, message: { ...message, role: undefined } }),
    ...[line.slice(0, -1), line.slice(0, Math.floor(line.length / 2))].filter((cut) => !cut.endsWith("}")),
  ];
  return out;
}

describe("the pi reader reads lines from their text as the plain reader reads them", () => {
  test("on the recorded files: the same facts and skipped lines, and lines left unread", async () => {
    expect(files.length).toBeGreaterThanOrEqual(2);
    for (const file of files) {
      const lines = readFileSync(file, "utf8").split(/\r?\n/);
      // twice over: a session file repeated (its header again, as the benchmark's corpus has it)
      const result = await expectSame([...lines, ...lines], file);
      expect(result.kept, file).toBeLessThan(lines.length * 2 * 0.9);
    }
  });

  test("on lines built to fool the test on text, in place of each recorded line and before it", async () => {
    const cases = await eachLineReplaced(files, { variants, expectSame });
    expect(cases).toBeGreaterThan(1000);
  }, 120_000);

  test("on generated sessions (entry types, roles, ids, times, key orders, odd lines)", async () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.constantFrom("toolCall", '"toolCall"', "hi\\u0041", "x") }),
      fc.record(
        {
          type: fc.constantFrom("toolCall", "thinking"),
          id: fc.constantFrom("c1", "c2"),
          name: fc.constantFrom("bash", 7),
          arguments: fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }),
        },
        { requiredKeys: ["type"] },
      ),
    );
    const message = fc.record(
      {
        role: fc.constantFrom("user", "assistant", "toolResult", "system", 7),
        content: fc.oneof(fc.array(block, { maxLength: 3 }), fc.string()),
        usage: fc.dictionary(fc.constantFrom("input", "output", "totalTokens"), fc.integer(), { maxKeys: 3 }),
        toolCallId: fc.constantFrom("c1", "c2"),
        toolName: fc.constantFrom("bash"),
        isError: fc.boolean(),
      },
      { requiredKeys: ["role"] },
    );
    const line = fc.oneof(
      {
        weight: 8,
        arbitrary: fc
          .record(
            {
              type: fc.constantFrom("session", "message", "message_end", "model_change", "turn_start"),
              id: fc.constantFrom("s1", "s2", 's"3', "s\\4"),
              timestamp: fc.oneof(
                fc.constantFrom("2026-11-27T12:51:54.608Z", "2026-11-27", "later", "2026-11-27T12:51:54.608\\u005a"),
                fc.integer({ min: 0, max: 2e12 }),
              ),
              message,
            },
            { requiredKeys: ["type"] },
          )
          .chain((record) =>
            fc
              .shuffledSubarray(Object.keys(record), { minLength: Object.keys(record).length })
              .map((order) => JSON.stringify(Object.fromEntries(order.map((key) => [key, record[key as "type"]])))),
          ),
      },
      { weight: 1, arbitrary: fc.constantFrom("", "not json", "{}", '{"type":7}') },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 20 }), async (lines) => {
        await expectSame(lines, lines.join("\n"));
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});
