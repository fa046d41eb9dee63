import { describe, expect, test } from "vitest";
import { fixtureEvents } from "../../../test/e2e/opencode/replay-fixture.js";
import { recognizeOpencodeDenial } from "./opencode-denial-text.js";
import { opencodeSignal } from "./opencode-signal.js";

function errorsOf(name: string) {
  return fixtureEvents(name)
    .map(opencodeSignal)
    .filter((signal) => signal?.kind === "tool-error");
}

describe("recognizeOpencodeDenial on recorded texts", () => {
  test("deny rule: names the rule that matched the command, opencode-style (last match wins)", () => {
    const [first] = errorsOf("deny-rule");
    if (first?.kind !== "tool-error") throw new Error("fixture has no tool error");
    expect(recognizeOpencodeDenial(first.error, { tool: first.tool, input: first.input })).toEqual({
      kind: "rule",
      rule: 'bash "rm *": deny',
    });
  });

  test("rejected ask", () => {
    const [first] = errorsOf("ask-reject");
    if (first?.kind !== "tool-error") throw new Error("fixture has no tool error");
    expect(recognizeOpencodeDenial(first.error)).toEqual({ kind: "rejected" });
  });

  test("the matching rule wins over a later deny rule for another pattern", () => {
    const text =
      'The user has specified a rule which prevents you from using this specific tool call. Here are some of the relevant rules [{"permission":"bash","pattern":"rm *","action":"deny"},{"permission":"bash","pattern":"rmdir *","action":"deny"}]';
    expect(recognizeOpencodeDenial(text, { tool: "bash", input: { command: "rm -rf x" } })?.rule).toBe(
      'bash "rm *": deny',
    );
    expect(recognizeOpencodeDenial(text, { tool: "bash", input: { command: "rmdir x" } })?.rule).toBe(
      'bash "rmdir *": deny',
    );
  });

  test("ordinary tool errors and output are not denials", () => {
    for (const text of [
      "Permission denied",
      "not allowed",
      "Error: file not found",
      "/usr/bin/bash: line 1: x: Permission denied",
    ]) {
      expect(recognizeOpencodeDenial(text)).toBeUndefined();
    }
  });
});
