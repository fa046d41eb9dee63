import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import type { ReaderFact, TranscriptFormat } from "../common/reader-event.js";
import { clineSession, clineSessionSummary } from "./cline-session.js";

async function readTranscriptFacts(format: TranscriptFormat, file: string): Promise<ReaderFact[]> {
  const lines = readFileSync(file, "utf8").split("\n");
  const facts: ReaderFact[] = [];
  const source = {
    file,
    *lines() {
      yield* lines;
    },
    skip: () => {
      throw new Error(`a line of ${file} was skipped`);
    },
    fallbackAt: 0,
    fallbackSessionId: "fallback",
  };
  for (const fact of format.read(source)) facts.push(fact);
  return facts;
}

const FIXTURES = resolve("test/fixtures/cline");

describe("Cline session files (recorded from cline 3.0.65)", () => {
  test("toolgate's refusal: a call that ran, a call toolgate refused (its text unwrapped), the turn", async () => {
    const facts = await readTranscriptFacts(clineSession, join(FIXTURES, "toolgate-denial.messages.json"));
    expect(facts.filter((fact) => fact.type === "turn")).toHaveLength(1);
    const calls = facts.filter((fact) => fact.type === "call");
    expect(calls.map((call) => [call.tool, call.input])).toEqual([
      ["run_commands", { command: "echo hello" }],
      ["run_commands", { command: "rm -rf build" }],
    ]);
    const results = facts.filter((fact) => fact.type === "result");
    expect(results.map((result) => result.outcome)).toEqual(["success", "error"]);
    expect(results[1]?.text).toMatch(/^\[toolgate\] Denied by rule Bash\(rm \*\): rm -rf build\./);
    expect(new Set(facts.map((fact) => fact.sessionId)).size).toBe(1);
  });

  test("Cline's own headless refusal", async () => {
    const facts = await readTranscriptFacts(clineSession, join(FIXTURES, "headless-approval.messages.json"));
    const results = facts.filter((fact) => fact.type === "result");
    expect(results.map((result) => result.text)).toEqual([
      'Tool "run_commands" requires approval in a TTY session -- NOT a tool or system failure. Clarify with user before proceeding.',
    ]);
  });

  test("sniffs the messages file and the summary file apart", () => {
    const messages = ["{", '  "version": 1,', '  "updated_at": "x",', '  "agent": "lead",', '  "sessionId": "1_a",'];
    const summary = ["{", '  "version": 1,', '  "session_id": "1_a",', '  "source": "cli",', '  "pid": 42,'];
    expect(clineSession.sniff(messages)).toBe(true);
    expect(clineSession.sniff(summary)).toBe(false);
    expect(clineSessionSummary.sniff(summary)).toBe(true);
    expect(clineSessionSummary.sniff(messages)).toBe(false);
  });
});
