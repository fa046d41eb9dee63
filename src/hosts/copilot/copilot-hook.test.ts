import { describe, expect, it } from "vitest";
import { copilotDenials, findCopilotPreToolUseId } from "./copilot-events.js";
import { parseCopilotHookInput } from "./copilot-hook-input.js";
import { failClosed } from "./copilot-hook-output.js";

/** Lines as Copilot CLI 1.0.102 writes them to events.jsonl (trimmed to the fields toolgate reads). */
const start = (id: string, command: string) =>
  JSON.stringify({ type: "tool.execution_start", data: { toolCallId: id, toolName: "bash", arguments: { command } } });
const denied = (id: string, message: string) =>
  JSON.stringify({
    type: "tool.execution_complete",
    data: { toolCallId: id, success: false, error: { message, code: "denied" } },
  });
const RULE = "Permission to run this tool was denied due to the following rules: `shell(rm)`";

describe("Copilot CLI hook events", () => {
  it("takes the event from the command line: the payload does not name it", () => {
    const input = parseCopilotHookInput('{"sessionId":"s","toolName":"bash","toolArgs":{"command":"ls"}}', {
      eventName: "preToolUse",
    });
    expect(input).toMatchObject({ event: "preToolUse", toolName: "bash", toolArgs: { command: "ls" } });
    expect(() => parseCopilotHookInput('{"sessionId":"s","toolName":"bash"}')).toThrow(/not one toolgate handles/);
  });

  it("refuses in Copilot's own shape when it cannot check a gating event", () => {
    expect(failClosed({ eventName: "preToolUse", reason: "boom" }).output).toMatchObject({
      permissionDecision: "deny",
    });
    expect(failClosed({ eventName: "permissionRequest", reason: "boom" }).output).toMatchObject({
      behavior: "deny",
      interrupt: true,
    });
    expect(failClosed({ eventName: undefined, reason: "boom" }).exitCode).toBe(2);
    expect(failClosed({ eventName: "postToolUse", reason: "boom" }).exitCode).toBe(1);
  });

  it("finds Copilot's refusals with their rule, leaving toolgate's own out", () => {
    const text = [
      start("c1", "rm -rf victim"),
      denied("c1", RULE),
      start("c2", "rm -rf victim"),
      denied("c2", "Denied by preToolUse hook: [toolgate] The run is being stopped"),
    ].join("\n");
    expect(copilotDenials(text)).toEqual([
      {
        toolUseId: "c1",
        tool: "bash",
        input: { command: "rm -rf victim" },
        source: "rule",
        text: RULE,
        rule: "shell(rm)",
      },
    ]);
    expect(copilotDenials(text, { withToolgate: true })).toHaveLength(2);
  });

  it("names the preToolUse's call by the hook start at the payload's timestamp, even for a repeated call", () => {
    const hook = (id: string, at: number) =>
      JSON.stringify({
        type: "hook.start",
        data: { hookType: "preToolUse", input: { toolCalls: [{ id, name: "bash", args: { command: "rm x" } }] } },
        timestamp: new Date(at).toISOString(),
      });
    const text = [hook("c1", 1000), hook("c2", 2000)].join("\n");
    const find = (timestamp: number) =>
      findCopilotPreToolUseId({ text, timestamp, tool: "bash", args: { command: "rm x" } });
    expect(find(1000)).toBe("c1");
    expect(find(2000)).toBe("c2");
    expect(find(3000)).toBeUndefined();
  });
});
