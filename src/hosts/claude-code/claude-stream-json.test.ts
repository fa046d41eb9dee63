import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReaderFact, ReaderSource } from "../common/reader-event.js";
import { claudeStreamJson } from "./claude-stream-json.js";

const fixture = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code");

function source(name: string): ReaderSource {
  const lines = readFileSync(join(fixture, name), "utf8").split("\n");
  return {
    file: name,
    *lines() {
      yield* lines;
    },
    skip: () => undefined,
    fallbackAt: 0,
    fallbackSessionId: "fallback",
  };
}

async function facts(name: string): Promise<ReaderFact[]> {
  const read: ReaderFact[] = [];
  for (const fact of claudeStreamJson.read(source(name))) read.push(fact);
  return read;
}

describe("claude -p stream-json: a PermissionDenied hook's retry (recorded on 2.1.332)", () => {
  // auto mode refused `touch` twice (the classifier does not run offline); a hook answered `retry: true` each time,
  // and Claude Code wrote its retry note into the stream as a synthetic user line after each refusal
  it("the retry note is Claude Code speaking, not a person's turn", async () => {
    const read = await facts("permission-denied-retry.stream.jsonl");
    const raw = readFileSync(join(fixture, "permission-denied-retry.stream.jsonl"), "utf8");
    expect(raw).toContain('"text":"The PermissionDenied hook indicated you may retry this tool call."');
    expect(raw).toContain('"isSynthetic":true');
    expect(read.filter((fact) => fact.type === "turn")).toHaveLength(0);
    const results = read.filter((fact) => fact.type === "result");
    expect(results).toHaveLength(2);
    expect(results.map((fact) => fact.type === "result" && fact.denial?.source)).toEqual(["classifier", "classifier"]);
  });
});
