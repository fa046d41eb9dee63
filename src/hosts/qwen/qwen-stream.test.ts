import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { qwenStreamDetector } from "./qwen-stream.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "qwen");

function parse(name: string, cut?: (line: string) => boolean) {
  const parser = qwenStreamDetector.create();
  for (const line of readFileSync(join(fixtures, name), "utf8").split("\n")) {
    if (cut?.(line) === true) continue;
    parser.push(line);
  }
  return parser.summary();
}

describe("qwen stream-json for toolgate run", () => {
  it("detects qwen with --output-format stream-json only", () => {
    expect(qwenStreamDetector.detect(["qwen", "-p", "x", "--output-format", "stream-json"])).toBe(true);
    expect(qwenStreamDetector.detect(["/x/node_modules/.bin/qwen", "-o", "stream-json", "-p", "x"])).toBe(true);
    expect(qwenStreamDetector.detect(["npx", "qwen", "--output-format=stream-json"])).toBe(true);
    expect(qwenStreamDetector.detect(["qwen", "-p", "x"])).toBe(false);
    expect(qwenStreamDetector.detect(["claude", "--output-format", "stream-json"])).toBe(false);
  });

  it("reads the result's permission_denials with the texts the model got, and the session id", () => {
    const summary = parse("stubborn.stream.jsonl");
    expect(summary.sessionId).toBe("74f8b87c-75e6-49c2-8e3b-087bd240675b");
    expect(summary.denials.map((denial) => denial.toolUseId)).toEqual(["call_1", "call_2", "call_3"]);
    expect(summary.denials[2]).toMatchObject({ tool: "run_shell_command", input: { command: "rm -rf ./victim" } });
    expect(summary.denials[0]?.reason).toContain("Matching deny rule");
    expect(summary.ended).toMatchObject({ isError: false, reason: "success" });
  });

  it("still sees the denials of a run killed before its result line", () => {
    const summary = parse("stubborn.stream.jsonl", (line) => line.includes('"type":"result"'));
    expect(summary.denials).toHaveLength(3);
    expect(summary.ended).toBeUndefined();
  });
});
