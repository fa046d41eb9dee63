import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTranscript } from "../common/read-transcript.js";
import { copilotDenials, findCopilotCallId, findCopilotPreToolUseId, pendingCopilotCalls } from "./copilot-events.js";

const FIXTURES = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "copilot");

describe("Copilot's events searched through a window (the file never read whole)", () => {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-copilot-events-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("answers as the text does at every point Copilot can have written, each search reading its lines once", () => {
    const file = join(directory, "events.jsonl");
    let compared = 0;
    for (const name of ["stubborn.events.jsonl", "interactive-ask-no.events.jsonl", "stubborn.output.jsonl"]) {
      const lines = readFileSync(join(FIXTURES, name), "utf8").trimEnd().split("\n");
      const parsed = lines.map((line) => JSON.parse(line) as { type?: string; data?: Record<string, unknown> });
      const starts = parsed.flatMap((event) =>
        event.type === "tool.execution_start"
          ? [{ tool: String(event.data?.["toolName"]), args: event.data?.["arguments"] }]
          : [],
      );
      const hooks = parsed.flatMap((event, index) => {
        const calls = (event.data?.["input"] as { toolCalls?: { name?: string; args?: unknown }[] } | undefined)
          ?.toolCalls;
        const at = Date.parse(JSON.parse(lines[index] ?? "{}").timestamp);
        return event.type === "hook.start" && Array.isArray(calls)
          ? calls.map((call) => ({ timestamp: at, tool: String(call.name), args: call.args }))
          : [];
      });
      expect(starts.length).toBeGreaterThan(0);
      for (let count = 0; count <= lines.length; count += 1) {
        // every whole line written, and the next one half written
        const next = lines[count] ?? "";
        const text = `${lines.slice(0, count).join("\n")}${count > 0 ? "\n" : ""}${next.slice(0, next.length >> 1)}`;
        writeFileSync(file, text);
        const windowed = openTranscript(file, undefined, { chunkBytes: 53 });
        expect(windowed).toBeDefined();
        const at = `${name} at line ${count}`;
        expect(copilotDenials(windowed!), at).toEqual(copilotDenials(text));
        expect(copilotDenials(windowed!, { withToolgate: true }), at).toEqual(
          copilotDenials(text, { withToolgate: true }),
        );
        expect(pendingCopilotCalls(windowed!), at).toEqual(pendingCopilotCalls(text));
        for (const start of starts) {
          for (const pending of [true, false]) {
            expect(findCopilotCallId({ text: windowed!, ...start, pending }), at).toBe(
              findCopilotCallId({ text, ...start, pending }),
            );
          }
        }
        for (const hook of hooks) {
          expect(findCopilotPreToolUseId({ text: windowed!, ...hook }), at).toBe(
            findCopilotPreToolUseId({ text, ...hook }),
          );
        }
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(50);
  });
  it("after a cursor left where every call had its outcome, answers as the whole text does for what follows", () => {
    const file = join(directory, "cursor.jsonl");
    let checked = 0;
    for (const name of ["stubborn.events.jsonl", "interactive-ask-no.events.jsonl"]) {
      const lines = readFileSync(join(FIXTURES, name), "utf8").trimEnd().split("\n");
      const parsed = lines.map((line) => JSON.parse(line) as { type?: string; data?: Record<string, unknown> });
      for (let settledAt = 1; settledAt < lines.length; settledAt += 1) {
        const before = `${lines.slice(0, settledAt).join("\n")}\n`;
        if (pendingCopilotCalls(before).length > 0) continue;
        writeFileSync(file, before);
        const cursor = openTranscript(file)?.next;
        expect(cursor).toBeDefined();
        const earlier = new Set(copilotDenials(before).map((denial) => denial.toolUseId));
        for (let count = settledAt; count <= lines.length; count += 3) {
          const text = `${lines.slice(0, count).join("\n")}\n`;
          writeFileSync(file, text);
          const since = openTranscript(file, cursor, { chunkBytes: 97 });
          expect(since).toBeDefined();
          const at = `${name}, cursor at ${settledAt}, ${count} lines`;
          expect(copilotDenials(since!), at).toEqual(
            copilotDenials(text).filter((denial) => !earlier.has(denial.toolUseId)),
          );
          expect(pendingCopilotCalls(since!), at).toEqual(pendingCopilotCalls(text));
          for (const [index, event] of parsed.slice(0, count).entries()) {
            if (event.type === "tool.execution_start") {
              const call = { tool: String(event.data?.["toolName"]), args: event.data?.["arguments"] };
              for (const pending of [true, false]) {
                expect(findCopilotCallId({ text: since!, ...call, pending }), at).toBe(
                  findCopilotCallId({ text, ...call, pending }),
                );
              }
            }
            const calls = (event.data?.["input"] as { toolCalls?: { name?: string; args?: unknown }[] } | undefined)
              ?.toolCalls;
            if (event.type === "hook.start" && index >= settledAt && Array.isArray(calls)) {
              const timestamp = Date.parse(JSON.parse(lines[index] ?? "{}").timestamp);
              for (const call of calls) {
                const hook = { timestamp, tool: String(call.name), args: call.args };
                expect(findCopilotPreToolUseId({ text: since!, ...hook }), at).toBe(
                  findCopilotPreToolUseId({ text, ...hook }),
                );
              }
            }
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(20);
  });
  it("names a finished call (postToolUse) by the last start with its tool and arguments, a pending one only if not finished", () => {
    const text = readFileSync(join(FIXTURES, "stubborn.events.jsonl"), "utf8");
    const file = join(directory, "finished.jsonl");
    writeFileSync(file, text);
    const call = { tool: "bash", args: { command: "rm -rf victim" } };
    for (const events of [text, openTranscript(file, undefined, { chunkBytes: 89 })!]) {
      expect(findCopilotCallId({ text: events, ...call, pending: false })).toBe("call_2_3");
      expect(findCopilotCallId({ text: events, ...call, pending: true })).toBeUndefined();
      expect(
        findCopilotCallId({ text: events, tool: "bash", args: { command: "ls" }, pending: false }),
      ).toBeUndefined();
    }
  });
});
