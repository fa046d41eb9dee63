import { expect, test } from "vitest";
import { createKiloStreamParser, kiloStreamDetector } from "./kilo-stream.js";

/** `toolgate run` reading `kilo run --format json` (Kilo CLI 7.7.7 writes opencode's run lines). */
const session = "ses_de2f8fab4ffeM1xCNDBtxqM3FM";

function toolUse(callID: string, state: Record<string, unknown>): string {
  return JSON.stringify({ type: "tool_use", sessionID: session, part: { type: "tool", callID, tool: "bash", state } });
}

test("reads the plugin's session line, each call Kilo's rule refused, and the stopped session", () => {
  const parser = createKiloStreamParser();
  parser.push(JSON.stringify({ type: "toolgate.session", sessionID: session }));
  parser.push(
    toolUse("call_1", {
      status: "error",
      input: { command: "rm -rf victim" },
      error:
        'The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules {"permission":"bash","pattern":"rm *","action":"deny"}',
    }),
  );
  parser.push(toolUse("call_2", { status: "completed", input: { command: "ls" }, output: "a\n" }));
  parser.push(toolUse("call_3", { status: "error", input: { command: "ls nope" }, error: "ls: nope: No such file" }));
  parser.push(JSON.stringify({ type: "error", sessionID: session, error: { name: "MessageAbortedError" } }));
  const summary = parser.summary();
  expect(summary.sessionId).toBe(session);
  expect(summary.denials.map((denial) => denial.toolUseId)).toEqual(["call_1"]);
  expect(summary.ended).toEqual({ isError: true, reason: "MessageAbortedError", stoppedByPermissionLayer: true });
});

test("detects `kilo run` and `kilocode run` on any path, and nothing else", () => {
  expect(kiloStreamDetector.detect(["kilo", "run", "--auto", "--format", "json", "x"])).toBe(true);
  expect(kiloStreamDetector.detect(["/opt/bin/kilocode", "run", "x"])).toBe(true);
  expect(kiloStreamDetector.detect(["kilo", "serve"])).toBe(false);
  expect(kiloStreamDetector.detect(["opencode", "run", "x"])).toBe(false);
});
