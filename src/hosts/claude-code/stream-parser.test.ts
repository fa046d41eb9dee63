import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { claudeCodeStreamDetector, createClaudeCodeStreamParser } from "./stream-parser.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code");
const stream = readFileSync(join(fixtures, "stream-denials.jsonl"), "utf8");

describe("Claude Code stream-json parser (recorded 2.1.330 run)", () => {
  it("finds each denial once: rule, path-denied Read, headless ask and the subagent's rule denial", () => {
    const parser = createClaudeCodeStreamParser();
    for (const line of stream.split("\n")) parser.push(line);
    const summary = parser.summary();
    expect(summary.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(summary.denials.map((denial) => [denial.toolUseId, denial.tool])).toEqual([
      ["toolu_main_002_0", "Bash"],
      ["toolu_main_003_0", "Read"],
      ["toolu_main_004_0", "Bash"],
      ["toolu_subagent_000_0", "Bash"],
    ]);
    expect(summary.denials[1]?.reason).toContain("File is in a directory that is denied");
    expect(summary.denials[3]?.agentId).toMatch(/^a[0-9a-f]+$/);
    expect(summary.ended).toEqual({ isError: false, reason: "completed", stoppedByPermissionLayer: false });
  });

  it("catches calls to a tool a bare deny removed (absent from permission_denials)", () => {
    const parser = createClaudeCodeStreamParser();
    parser.push(
      JSON.stringify({
        type: "assistant",
        message: { content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }] },
      }),
    );
    parser.push(
      JSON.stringify({
        type: "user",
        message: {
          content: [
            {
              type: "tool_result",
              tool_use_id: "t1",
              is_error: true,
              content:
                "<tool_use_error>Error: No such tool available: Bash. Bash is disabled for this session</tool_use_error>",
            },
          ],
        },
      }),
    );
    parser.push("not json");
    parser.push(
      JSON.stringify({
        type: "result",
        subtype: "success",
        is_error: false,
        terminal_reason: "hook_stopped",
        permission_denials: [],
      }),
    );
    const summary = parser.summary();
    expect(summary.denials).toEqual([
      expect.objectContaining({ toolUseId: "t1", tool: "Bash", input: { command: "ls" } }),
    ]);
    expect(summary.ended?.stoppedByPermissionLayer).toBe(true);
  });
});

describe("claudeCodeStreamDetector", () => {
  it.each([
    [["claude", "-p", "x", "--output-format", "stream-json"], true],
    [["/opt/node_modules/@anthropic-ai/claude-agent-sdk-linux-x64/claude", "--output-format=stream-json"], true],
    [["claude", "-p", "x"], false],
    [["opencode", "run", "--output-format", "stream-json"], false],
  ])("%j -> %s", (command, expected) => {
    expect(claudeCodeStreamDetector.detect(command)).toBe(expected);
  });
});
