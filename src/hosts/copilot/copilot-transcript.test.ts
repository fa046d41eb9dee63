import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ReaderFact, ReaderSource } from "../common/reader-event.js";
import { copilotEventsFormat, copilotJsonFormat } from "./copilot-transcript.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "copilot");

async function facts(file: string, format: typeof copilotEventsFormat): Promise<ReaderFact[]> {
  const text = readFileSync(join(FIXTURES, file), "utf8");
  const source: ReaderSource = {
    file,
    *lines(keep, keepBytes) {
      for (const line of text.split("\n")) {
        if (line === "" || (keepBytes !== undefined && !keepBytes(Buffer.from(line)))) continue;
        if (keep !== undefined && !keep(line)) continue;
        yield line;
      }
    },
    skip() {},
    fallbackAt: 0,
    fallbackSessionId: "fallback",
  };
  const found: ReaderFact[] = [];
  for (const fact of format.read(source)) found.push(fact);
  return found;
}

describe("Copilot CLI's events.jsonl: tokens per call", () => {
  it("gives each call the tokens of the model request that made it (session.usage_record: input + output)", async () => {
    const calls = (await facts("stubborn.events.jsonl", copilotEventsFormat)).filter((fact) => fact.type === "call");
    expect(calls.map((call) => [call.type === "call" ? call.id : "", call.type === "call" ? call.tokens : -1])).toEqual(
      [
        ["call_1_1", 15],
        ["call_2_3", 15],
      ],
    );
  });

  it("names no tokens where the output has no usage record (`-p --output-format json`)", async () => {
    const calls = (await facts("stubborn.output.jsonl", copilotJsonFormat)).filter((fact) => fact.type === "call");
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.type === "call" ? call.tokens : 0).toBeUndefined();
  });
});
