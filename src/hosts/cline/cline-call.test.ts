import { describe, expect, test } from "vitest";
import { clineCommandFailed, clineResultText, clineToolCall } from "./cline-call.js";

describe("clineToolCall", () => {
  test("run_commands' commands are one shell script, one command a line", () => {
    expect(
      clineToolCall({ toolCallId: "call_1", toolName: "run_commands", input: { commands: ["ls", "rm -rf build"] } }),
    ).toEqual({ toolUseId: "call_1", tool: "run_commands", input: { command: "ls\nrm -rf build" } });
  });

  test("an input of another shape is kept as it is (the policy refuses a command it cannot read)", () => {
    for (const input of ["rm -rf /", null, { commands: "rm -rf /" }, { commands: [7] }, { commands: [] }]) {
      expect(clineToolCall({ toolCallId: "c", toolName: "run_commands", input }).input).toEqual(input);
    }
    expect(clineToolCall({ toolCallId: "c", toolName: "editor", input: { path: "/a" } }).input).toEqual({ path: "/a" });
    expect(clineToolCall({ toolCallId: 7, toolName: undefined, input: {} })).toMatchObject({ toolUseId: "", tool: "" });
  });
});

describe("run_commands results", () => {
  test("the text the model read, and whether a command failed", () => {
    const output = [
      { query: "echo hi", result: "hi\n", success: true },
      { query: "false", result: "[Command exited with code 1]", error: "Command exited with code 1", success: false },
    ];
    expect(clineResultText(output)).toBe("hi\n\n[Command exited with code 1]");
    expect(clineCommandFailed(output)).toBe(true);
    expect(clineCommandFailed(output.slice(0, 1))).toBe(false);
    expect(clineResultText({ error: "x" })).toBe('{"error":"x"}');
  });
});
