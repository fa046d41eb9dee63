import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
import type { HookContext } from "../common/hook-host.js";
import { parseGeminiHookInput } from "./gemini-hook-input.js";
import { failClosed } from "./gemini-hook-output.js";
import { handleGeminiHook } from "./handle-gemini-hook.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "gemini");
const payload = (name: string, patch: Record<string, unknown> = {}) =>
  parseGeminiHookInput(JSON.stringify({ ...JSON.parse(readFileSync(join(fixtures, name), "utf8")), ...patch }));
const shell = (command: string) => payload("before-tool-policy-denied.json", { tool_input: { command } });

/** A guard with Gemini-like rules (an allow for the shell, a deny for rm, an ask for git push), no defaults. */
function context(options: { interactive: boolean }): HookContext {
  const policy = compilePolicy({
    rules: [
      { rule: "Bash", behavior: "allow", priority: 4.1 },
      { rule: "Bash(rm *)", behavior: "deny", priority: 4.2 },
      { rule: "Bash(git push *)", behavior: "ask", priority: 4.2 },
      { rule: "mcp__github__delete_repo", behavior: "deny", priority: 4.2 },
    ],
    cwd: "/tmp/toolgate-fixture/proj",
    homeDir: "/tmp/toolgate-fixture/home",
    defaults: NO_DEFAULTS,
  });
  const guard = createGuard({ policy, onError: () => undefined });
  const session = guard.session("s1", { interactive: options.interactive, host: "gemini" });
  return { session, interactive: options.interactive, readTranscript: () => undefined };
}

describe("handleGeminiHook (recorded Gemini CLI 0.61.0 payloads)", () => {
  it("BeforeTool: denies a policy-denied call first, toolgate's guidance as the reason the model reads", async () => {
    const answer = await handleGeminiHook(payload("before-tool-policy-denied.json"), context({ interactive: false }));
    expect(answer.output?.decision).toBe("deny");
    expect(answer.output?.reason).toContain("Bash(rm *)");
    expect(answer.output?.continue).toBeUndefined();
  });

  it("BeforeTool: never answers allow; allowed calls and calls no rule matches are left to Gemini", async () => {
    const hook = context({ interactive: false });
    for (const command of ["ls", "echo ok"])
      expect((await handleGeminiHook(shell(command), hook)).output).toBeUndefined();
    const read = payload("before-tool-policy-denied.json", { tool_name: "read_file", tool_input: { file_path: "a" } });
    expect((await handleGeminiHook(read, hook)).output).toBeUndefined();
  });

  it("BeforeTool: an explicit ask is declined first in a headless run (as Gemini would) and left to Gemini when a person can answer", async () => {
    const headless = await handleGeminiHook(shell("git push origin main"), context({ interactive: false }));
    expect(headless.output?.decision).toBe("deny");
    expect(headless.output?.reason).toMatch(/confirmation|approv/i);
    const interactive = await handleGeminiHook(shell("git push origin main"), context({ interactive: true }));
    expect(interactive.output).toBeUndefined();
  });

  it("BeforeTool: a stubborn model is escalated and then stopped with continue: false, and stays stopped", async () => {
    const hook = context({ interactive: false });
    const answers = [];
    for (let attempt = 0; attempt < 6; attempt += 1) answers.push(await handleGeminiHook(shell("rm -rf victim"), hook));
    const firstStop = answers.findIndex((answer) => answer.output?.continue === false);
    expect(firstStop).toBeGreaterThan(0);
    expect(answers[firstStop]?.output?.stopReason).toBeTruthy();
    expect(answers.slice(firstStop).every((answer) => answer.output?.continue === false)).toBe(true);
    // even an allowed call after the abort is stopped
    expect((await handleGeminiHook(shell("ls"), hook)).output?.continue).toBe(false);
    const state = await hook.session.state();
    expect(state.aborted).toBeDefined();
  });

  it("BeforeTool: an MCP tool is named as toolgate's rules name it (mcp__server__tool, from mcp_context)", async () => {
    const call = payload("before-tool-policy-denied.json", {
      tool_name: "mcp_github_delete_repo",
      tool_input: { repo: "x" },
      mcp_context: { server_name: "github", tool_name: "delete_repo", command: "github-mcp" },
    });
    const answer = await handleGeminiHook(call, context({ interactive: false }));
    expect(answer.output?.decision).toBe("deny");
    expect(answer.output?.reason).toContain("mcp__github__delete_repo");
  });

  it("AfterTool: an OS-level refusal in the output is counted and nudged in the tool result", async () => {
    const hook = context({ interactive: false });
    await handleGeminiHook(payload("after-tool-eacces.json"), hook);
    const answer = await handleGeminiHook(payload("after-tool-eacces.json"), hook);
    const records = await hook.session.recordedCallIds();
    expect(records.size).toBe(2);
    expect(answer.output?.hookSpecificOutput?.additionalContext ?? "").not.toBe("");
  });

  it("turn and session events are boundaries: BeforeAgent starts a turn, AfterAgent ends it, SessionEnd ends the session", async () => {
    const hook = context({ interactive: false });
    for (const name of ["session-start.json", "before-agent.json", "after-agent.json", "session-end.json"]) {
      expect(await handleGeminiHook(payload(name), hook)).toEqual({ exitCode: 0 });
    }
  });
});

describe("the Gemini hook's input and fail-closed answer", () => {
  it("rejects unreadable input with a sentence, and fails closed: a deny for BeforeTool, exit 2 when unreadable", () => {
    expect(() => parseGeminiHookInput("not json")).toThrow(/toolgate hook gemini/);
    expect(() => parseGeminiHookInput('{"hook_event_name":"BeforeTool","session_id":"s"}')).toThrow(/tool_name/);
    expect(failClosed({ eventName: "BeforeTool", reason: "boom" }).output?.decision).toBe("deny");
    expect(failClosed({ eventName: undefined, reason: "boom" }).exitCode).toBe(2);
    expect(failClosed({ eventName: "AfterAgent", reason: "boom" }).exitCode).toBe(1);
  });
});
