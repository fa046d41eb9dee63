import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { type InMemoryRead, readInMemory } from "../../test/support/read-in-memory.js";
import type { TranscriptFormat } from "../hosts/common/reader-event.js";
import { detectFormat } from "./formats.js";

/**
 * Readers leave lines unparsed that cannot yield anything (`ReaderSource.lines`' `keep`, hosts/common/skip-lines.ts):
 * differential tests, the facts and skipped lines with the skip against parsing every line, on every recorded
 * transcript and on lines built to fool a test on bytes (names inside strings, escaped quotes, `\u` escapes,
 * whitespace, the session or type nested instead of at the top level, a session that changes).
 */
const fixtures = resolve("test/fixtures");

function filesBelow(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? filesBelow(path) : name.endsWith(".jsonl") ? [path] : [];
  });
}

async function read(format: TranscriptFormat, lines: readonly string[], useKeep: boolean): Promise<InMemoryRead> {
  return readInMemory(format.read, { lines, useKeep });
}

async function expectSame(format: TranscriptFormat, lines: readonly string[], label: string): Promise<InMemoryRead> {
  const skipping = await read(format, lines, true);
  const every = await read(format, lines, false);
  expect(JSON.stringify({ facts: skipping.facts, skipped: skipping.skipped }), label).toBe(
    JSON.stringify({ facts: every.facts, skipped: every.skipped }),
  );
  return skipping;
}

/** The same object on one line with a space after every `:` and `,` (valid JSON, not what the hosts write). */
function spaced(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/\n */g, " ");
}

const NAMES = [
  "type",
  "user",
  "assistant",
  "tool_result",
  "toolResult",
  "tool",
  "sessionId",
  "sessionID",
  "session_id",
  "role",
  "init",
  "result",
  "timestamp",
  "permission_denied",
  "toolCalls",
  "$set",
  "projectHash",
  "lastUpdated",
  "payload",
  "functionCall",
  "functionResponse",
  "provenance",
];
const TRAP = `"type":"user" "tool" "sessionId":"other" "session_id":"other" "role":"user" \\u0022 "$set" "toolCalls" "messages" "session" "timestamp" "result" "init"`;

/** Variants of one transcript line (a JSON object) built to fool a test on its bytes. */
function variants(line: string, announced: string | undefined): string[] {
  const record = JSON.parse(line) as Record<string, unknown>;
  const out = [
    spaced(record),
    // names spelled with escapes
    ...NAMES.map((name) => line.replaceAll(`"${name}"`, `"\\u00${name.charCodeAt(0).toString(16)}${name.slice(1)}"`)),
    // the names, quoted, inside a string (escaped quotes) and a \u escape, first and last
    JSON.stringify({ note: TRAP, ...record }),
    JSON.stringify({ ...record, note: TRAP }),
    JSON.stringify({ ...record, note: `${TRAP}\\"type\\":\\"user\\"` }),
    // a nested object that holds the names a test looks for, before the top-level keys
    JSON.stringify({
      nested: { type: "user", sessionId: announced, sessionID: announced, part: { type: "tool" } },
      ...record,
    }),
  ];
  // the top-level keys moved into a nested object, or the session changed
  for (const key of [
    "type",
    "subtype",
    "sessionId",
    "sessionID",
    "session_id",
    "timestamp",
    "part",
    "message",
    "$set",
    "role",
  ]) {
    if (!(key in record)) continue;
    const { [key]: moved, ...rest } = record;
    out.push(JSON.stringify({ inner: { [key]: moved }, ...rest }));
    out.push(JSON.stringify({ ...rest, inner: { [key]: moved } }));
    out.push(JSON.stringify({ ...rest, [key]: 7 }));
    if (typeof moved === "string") out.push(JSON.stringify({ ...rest, [key]: `${moved}-other` }));
  }
  return out;
}

const SKIPPING_FORMATS = new Set(["qwen-chat", "pi-session", "codex-rollout", "gemini-session"]);

describe("a line left unparsed is one the reader would have ignored", async () => {
  const files: { file: string; format: TranscriptFormat; lines: string[] }[] = [];
  for (const file of filesBelow(fixtures)) {
    const format = await detectFormat(file);
    if (format === undefined || format.sniffFile !== undefined) continue;
    files.push({ file, format, lines: readFileSync(file, "utf8").split(/\r?\n/) });
  }

  test("on every recorded transcript: the same facts and skipped lines", async () => {
    expect(files.length).toBeGreaterThan(50);
    for (const { file, format, lines } of files) await expectSame(format, lines, file);
  });

  test("the formats that skip leave lines of their recorded transcripts unparsed", async () => {
    const skipping = new Set<string>();
    for (const { format, lines } of files) {
      const result = await read(format, lines, true);
      if (result.kept < lines.length) skipping.add(format.id);
    }
    for (const id of SKIPPING_FORMATS) expect(skipping, id).toContain(id);
  });

  test("on lines built to fool the tests on bytes, each in place of a recorded line", async () => {
    let cases = 0;
    // two recorded transcripts per format (every line of each, every variant in two places)
    const perFormat = new Map<string, number>();
    for (const { file, format, lines } of files) {
      if (!SKIPPING_FORMATS.has(format.id) || (perFormat.get(format.id) ?? 0) >= 2) continue;
      perFormat.set(format.id, (perFormat.get(format.id) ?? 0) + 1);
      const first = await read(format, lines, false);
      const announced = first.facts.find((fact) => fact.type === "session")?.sessionId;
      for (const [index, line] of lines.entries()) {
        if (!line.startsWith("{")) continue;
        for (const variant of variants(line, announced)) {
          // in place of the line, and before it (so that the line after a variant is read in its wake)
          const replaced = lines.map((each, at) => (at === index ? variant : each));
          const inserted = [...lines.slice(0, index), variant, ...lines.slice(index)];
          await expectSame(format, replaced, `${file}:${index + 1} ${variant}`);
          await expectSame(format, inserted, `${file}:${index + 1} (inserted) ${variant}`);
          cases += 2;
        }
      }
    }
    expect([...perFormat.keys()].sort()).toEqual([...SKIPPING_FORMATS].sort());
    expect(cases).toBeGreaterThan(1000);
  }, 300_000);
});
