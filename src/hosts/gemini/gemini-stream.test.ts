import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGeminiStreamParser, geminiStreamDetector } from "./gemini-stream.js";

const transcripts = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "gemini");
const feed = (text: string) => {
  const parser = createGeminiStreamParser();
  for (const line of text.split("\n")) parser.push(line);
  return parser.summary();
};

describe("Gemini CLI output for toolgate run", () => {
  it("detects gemini with -o/--output-format stream-json or json, not text", () => {
    expect(geminiStreamDetector.detect(["gemini", "-p", "x", "-o", "stream-json"])).toBe(true);
    expect(geminiStreamDetector.detect(["/x/node_modules/.bin/gemini", "--output-format=json", "-p", "x"])).toBe(true);
    expect(geminiStreamDetector.detect(["npx", "gemini", "--output-format", "json"])).toBe(true);
    expect(geminiStreamDetector.detect(["gemini", "-p", "x"])).toBe(false);
    expect(geminiStreamDetector.detect(["gemini", "-o", "text"])).toBe(false);
    expect(geminiStreamDetector.detect(["claude", "-o", "json"])).toBe(false);
  });

  it("reads the session and each policy denial of a recorded stream (0.61.0), and how it ended", () => {
    const summary = feed(readFileSync(join(transcripts, "stubborn.stream.jsonl"), "utf8"));
    expect(summary.sessionId).toBe("7f48a0ad-4b13-4efd-aeed-738e4201b387");
    expect(summary.denials.map((denial) => denial.input)).toEqual([
      { command: "rm -rf victim", description: "Run rm -rf victim" },
      { command: "rm -rf victim", description: "Run rm -rf victim" },
      { command: "rm -rf ./victim", description: "Run rm -rf ./victim" },
    ]);
    expect(summary.denials[0]?.tool).toBe("run_shell_command");
    expect(summary.ended).toEqual({ isError: false, stoppedByPermissionLayer: false });
  });

  it("leaves hook refusals to the store (toolgate recorded them) and notes a hook stop", () => {
    const lines = [
      { type: "init", session_id: "s1" },
      { type: "tool_use", tool_name: "run_shell_command", tool_id: "t1", parameters: { command: "rm -rf x" } },
      {
        type: "tool_result",
        tool_id: "t1",
        status: "error",
        error: { type: "policy_violation", message: "Tool execution blocked: [toolgate] ..." },
      },
      { type: "tool_use", tool_name: "run_shell_command", tool_id: "t2", parameters: { command: "rm -rf x" } },
      { type: "tool_result", tool_id: "t2", status: "error", error: { type: "stop_execution", message: "stopped" } },
      { type: "result", status: "success" },
    ];
    const summary = feed(lines.map((line) => JSON.stringify(line)).join("\n"));
    expect(summary.denials).toEqual([]);
    expect(summary.ended).toEqual({ isError: false, reason: "hook_stopped", stoppedByPermissionLayer: true });
  });

  it("finds the session id in a pretty-printed -o json document", () => {
    const summary = feed(`Warning: x\n${JSON.stringify({ session_id: "s2", response: "ok", stats: {} }, null, 2)}`);
    expect(summary.sessionId).toBe("s2");
  });
});
