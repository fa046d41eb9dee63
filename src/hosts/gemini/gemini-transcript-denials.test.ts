import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { parseGeminiHookInput } from "./gemini-hook-input.js";
import { geminiTranscriptDenials } from "./gemini-transcript-denials.js";
import { handleGeminiHook } from "./handle-gemini-hook.js";

const transcripts = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "transcripts", "gemini");
const session = (name: string) => readFileSync(join(transcripts, name), "utf8");

describe("geminiTranscriptDenials (recorded Gemini CLI 0.61.0 session files)", () => {
  it("finds each policy denial once, under Gemini's own call id", () => {
    const denials = geminiTranscriptDenials(session("stubborn.session.jsonl"));
    expect(denials).toHaveLength(3);
    expect(new Set(denials.map((denial) => denial.toolUseId)).size).toBe(3);
    expect(denials.every((denial) => denial.source === "rule" && denial.tool === "run_shell_command")).toBe(true);
    expect(denials[0]?.toolUseId).toMatch(/^run_shell_command__run_shell_command_\d+_\d+$/);
  });

  it("a headless ask_user is a headless denial; successful calls and toolgate's own refusals are not denials", () => {
    expect(geminiTranscriptDenials(session("ask.session.jsonl")).map((denial) => denial.source)).toEqual([
      "headless",
      "headless",
      "headless",
    ]);
    expect(geminiTranscriptDenials(session("eacces.session.jsonl"))).toEqual([]);
    const ours = JSON.stringify({
      type: "gemini",
      toolCalls: [
        {
          id: "c1",
          name: "run_shell_command",
          args: { command: "rm -rf x" },
          status: "error",
          result: [{ functionResponse: { response: { error: "Tool execution blocked: [toolgate] Denied by rule" } } }],
        },
      ],
    });
    expect(geminiTranscriptDenials(ours)).toEqual([]);
  });

  it("AfterAgent records the denials no hook saw, once, however often it fires", async () => {
    const guard = createGuard({ onError: () => undefined });
    const hookSession = guard.session("s1", { interactive: false, host: "gemini" });
    const context = {
      session: hookSession,
      interactive: false,
      readTranscript: () => session("stubborn.session.jsonl"),
    };
    const afterAgent = parseGeminiHookInput(
      JSON.stringify({ hook_event_name: "AfterAgent", session_id: "s1", transcript_path: "/t/session.jsonl" }),
    );
    const first = await handleGeminiHook(afterAgent, context);
    await handleGeminiHook(afterAgent, context);
    const ids = await hookSession.recordedCallIds();
    expect(ids.size).toBe(3);
    // three rule denials of one pattern reach the default threshold: the session is ended, not retried
    expect(first.output).toMatchObject({ continue: false, stopReason: expect.stringContaining("toolgate aborted") });
  });
});
