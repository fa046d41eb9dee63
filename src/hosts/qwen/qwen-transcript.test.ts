import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { classifyQwenDenial, findQwenCallId, findQwenTranscriptDenials, pendingQwenCalls } from "./qwen-transcript.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const transcript = (path: string) => readFileSync(join(fixtures, path), "utf8");

describe("findQwenTranscriptDenials (Qwen Code 0.24.4 chat files)", () => {
  it("finds every call Qwen's own deny rule refused, once, with the model's call id, input and rule", () => {
    const denials = findQwenTranscriptDenials(transcript("transcripts/qwen/stubborn.chat.jsonl"));
    expect(denials.map((denial) => denial.toolUseId)).toEqual(["call_1", "call_2", "call_3"]);
    expect(denials[2]).toMatchObject({
      tool: "run_shell_command",
      input: { command: "rm -rf ./victim" },
      source: "rule",
      rule: "Bash(rm *)",
    });
    expect(denials[0]?.text).toContain('Matching deny rule: "Bash(rm *)"');
  });

  it("counts a hook's refusal (execution_denied) but not an OS-level failure or a success", () => {
    const denials = findQwenTranscriptDenials(transcript("qwen/hook-run.chat.jsonl"));
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ toolUseId: "call_3", source: "hook", input: { command: "echo two" } });
  });

  it("ignores lines that are not JSON objects (a line cut by a concurrent write)", () => {
    const text = transcript("transcripts/qwen/stubborn.chat.jsonl");
    const cut = `${text}{"type":"tool_result","toolCallRes`;
    expect(findQwenTranscriptDenials(cut)).toHaveLength(3);
  });
});

describe("classifyQwenDenial", () => {
  it("names the source of each of Qwen's refusal texts", () => {
    expect(
      classifyQwenDenial(
        'This "run_shell_command" invocation was denied by permission rules. Matching deny rule: "edit".',
      ),
    ).toEqual({ source: "rule", rule: "edit" });
    expect(
      classifyQwenDenial(
        'Qwen Code requires permission to use "run_shell_command", but that permission was declined. Matching deny rule: "run_shell_command".',
      ),
    ).toEqual({ source: "rule", rule: "run_shell_command" });
    expect(
      classifyQwenDenial(
        'Qwen Code requires permission to use "run_shell_command", but that permission was declined (non-interactive mode cannot prompt for confirmation).',
      ),
    ).toEqual({ source: "headless" });
    expect(classifyQwenDenial("Blocked by auto mode policy: pushes are risky\nDo not try...")).toEqual({
      source: "classifier",
    });
    expect(classifyQwenDenial("[toolgate] Denied by rule Bash(rm *)")).toEqual({ source: "hook" });
  });
});

describe("findQwenCallId", () => {
  it("maps a hook's call (tool + arguments) to the model's call id the transcript uses", () => {
    const text = transcript("qwen/hook-run.chat.jsonl");
    expect(findQwenCallId({ transcript: text, tool: "run_shell_command", input: { command: "./notexec.sh" } })).toBe(
      "call_2",
    );
    expect(
      findQwenCallId({ transcript: text, tool: "run_shell_command", input: { command: "echo never" } }),
    ).toBeUndefined();
  });
});

describe("pendingQwenCalls", () => {
  it("names the calls written without a result yet", () => {
    const lines = readFileSync(join(fixtures, "transcripts/qwen/stubborn.chat.jsonl"), "utf8").split("\n");
    const secondResult = lines.findIndex((line, index) => index > 6 && line.includes('"type":"tool_result"'));
    expect(pendingQwenCalls(lines.slice(0, secondResult).join("\n"))).toEqual(["call_2"]);
    expect(pendingQwenCalls(lines.join("\n"))).toEqual([]);
  });
});
