import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { expect, test } from "vitest";
import { createPiStreamParser, piStreamDetector } from "./pi-stream.js";

/** `toolgate run` reading `pi --mode json`, recorded from pi 1.6.0 (test/fixtures/transcripts/pi/). */
const recorded = readFileSync(resolve("test/fixtures/transcripts/pi/stubborn.stream.jsonl"), "utf8");

test("reads the session id and each refused call once, with its input and the text the model read", () => {
  const parser = createPiStreamParser();
  for (const line of recorded.split("\n")) parser.push(line);
  const summary = parser.summary();
  expect(summary.sessionId).toBe("01a21d0f-f141-719e-b8ce-6b434abf0451");
  expect(summary.denials.map((denial) => [denial.tool, (denial.input as { command: string }).command])).toEqual([
    ["bash", "rm -rf victim"],
    ["bash", "rm -rf victim"],
    ["bash", "rm -rf ./victim"],
  ]);
  expect(summary.denials[0]?.reason).toMatch(/^\[toolgate\] Denied by rule Bash\(rm \*\)/);
  expect(summary.ended).toBeUndefined();
});

test("a refusal that ended the run (terminate) and an aborted run are the run's end", () => {
  const parser = createPiStreamParser();
  parser.push(
    JSON.stringify({ type: "tool_execution_start", toolCallId: "c1", toolName: "bash", args: { command: "rm x" } }),
  );
  parser.push(
    JSON.stringify({
      type: "tool_execution_end",
      toolCallId: "c1",
      toolName: "bash",
      result: { content: [{ type: "text", text: "[toolgate] The run is being stopped" }], terminate: true },
      isError: true,
    }),
  );
  expect(parser.summary().ended).toEqual({ isError: true, reason: "terminated", stoppedByPermissionLayer: true });
  parser.push(JSON.stringify({ type: "agent_settled", aborted: true }));
  expect(parser.summary().ended?.reason).toBe("aborted");
});

test("a failed command is not a refusal", () => {
  const parser = createPiStreamParser();
  parser.push(
    JSON.stringify({
      type: "tool_execution_end",
      toolCallId: "c2",
      toolName: "bash",
      result: { content: [{ type: "text", text: "ls: cannot access 'x': No such file or directory" }] },
      isError: true,
    }),
  );
  expect(parser.summary().denials).toEqual([]);
});

test("detects pi's JSON mode, on any path to pi, and nothing else", () => {
  expect(piStreamDetector.detect(["pi", "-p", "--mode", "json", "fix it"])).toBe(true);
  expect(piStreamDetector.detect(["/usr/local/bin/pi", "--mode=json", "-p", "x"])).toBe(true);
  expect(
    piStreamDetector.detect([
      "node",
      "/x/node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js",
      "--mode",
      "json",
    ]),
  ).toBe(true);
  expect(piStreamDetector.detect(["pi", "-p", "fix it"])).toBe(false);
  expect(piStreamDetector.detect(["pip", "--mode", "json"])).toBe(false);
});
