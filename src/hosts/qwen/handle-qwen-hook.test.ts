import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it, vi } from "vitest";
import type { AuditEvent } from "../../core/records.js";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import type { HookContext } from "../common/hook-host.js";
import { openTranscript, transcriptOpenerForOneEvent } from "../common/read-transcript.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
import { handleQwenHook } from "./handle-qwen-hook.js";
import { QWEN_ESCALATION_DEFAULTS } from "./qwen-hook-host.js";
import { parseQwenHookInput } from "./qwen-hook-input.js";
import { failClosed } from "./qwen-hook-output.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const read = (path: string) => readFileSync(join(fixtures, path), "utf8");
const payload = (name: string, patch: Record<string, unknown> = {}) =>
  parseQwenHookInput(JSON.stringify({ ...JSON.parse(read(`qwen/${name}`)), ...patch }));

function context(options: { interactive: boolean; transcript?: () => string | undefined }): HookContext {
  const policy = compilePolicy({
    rules: [{ rule: "Bash(git push *)", behavior: "deny", origin: "test config" }],
    cwd: "/tmp/toolgate-fixture/project",
    homeDir: "/tmp/toolgate-fixture/home",
  });
  const guard = createGuard({ policy, core: QWEN_ESCALATION_DEFAULTS, onError: () => undefined });
  const session = guard.session("s1", { interactive: options.interactive, host: "qwen" });
  return { session, interactive: options.interactive, readTranscript: () => options.transcript?.() };
}

type Output = { continue?: boolean; stopReason?: string; hookSpecificOutput?: Record<string, unknown> };
const outputOf = (answer: { output?: unknown }) => (answer.output ?? {}) as Output;

/** The stubborn transcript cut right after its first `count` tool results: what Qwen has written at that step. */
function stubbornAfter(count: number): string {
  const out: string[] = [];
  let results = 0;
  for (const line of read("transcripts/qwen/stubborn.chat.jsonl").split("\n")) {
    if (results === count) break;
    out.push(line);
    if (line.includes('"type":"tool_result"')) results += 1;
  }
  return `${out.join("\n")}\n`;
}

/** The transcript with the call after the first `count` results written but its result not yet (Qwen writes async). */
function stubbornPending(count: number): string {
  const lines = read("transcripts/qwen/stubborn.chat.jsonl").split("\n");
  let results = 0;
  const next = lines.findIndex((line) => line.includes('"type":"tool_result"') && results++ === count);
  return `${lines.slice(0, next).join("\n")}\n`;
}

describe("handleQwenHook (recorded Qwen Code 0.24.4 payloads)", () => {
  it("PostToolBatch: counts the calls Qwen's own rules refused (no other hook sees them), once, and tells the model", async () => {
    const hook = context({ interactive: false });
    const answer = outputOf(await handleQwenHook(payload("post-tool-batch-denied.json"), hook));
    expect(String(answer.hookSpecificOutput?.additionalContext)).toContain("[toolgate] Denied by rule Bash(rm *)");
    expect([...(await hook.session.recordedCallIds())]).toEqual(["call_1"]);
    const again = await handleQwenHook(payload("post-tool-batch-denied.json"), hook);
    expect(again.output).toBeUndefined();
    const state = await hook.session.state();
    expect(state.agents["main"]?.total).toBe(1);
    // the transcript shows the same call later: not counted again
    const later = context({ interactive: false, transcript: () => stubbornAfter(1) });
    await handleQwenHook(payload("post-tool-batch-denied.json"), later);
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), later);
    expect((await later.session.state()).agents["main"]?.total).toBe(1);
  });

  it("PostToolBatch asks the session's state, not the denial store, once the session has one (every batch of a run)", async () => {
    const query = vi.fn(async () => []);
    const guard = createGuard({ core: QWEN_ESCALATION_DEFAULTS, denialStore: { query }, onError: () => undefined });
    const hook: HookContext = {
      session: guard.session("s1", { interactive: false, host: "qwen" }),
      interactive: false,
      readTranscript: () => undefined,
    };
    await handleQwenHook(payload("pre-tool-use.json"), hook);
    // a batch Qwen refused nothing of, then one with its rule's refusal: each answered from the state
    const allowed = payload("post-tool-batch-denied.json", { tool_calls: [] });
    expect((await handleQwenHook(allowed, hook)).output).toBeUndefined();
    const refused = outputOf(await handleQwenHook(payload("post-tool-batch-denied.json"), hook));
    expect(String(refused.hookSpecificOutput?.additionalContext)).toContain("[toolgate] Denied by rule Bash(rm *)");
    expect((await hook.session.state()).total).toBe(1);
    expect(query).not.toHaveBeenCalled();
  });

  it("UserPromptSubmit: counts Qwen's own rule denials from the transcript once, and tells the model", async () => {
    let transcript = stubbornAfter(1);
    const hook = context({ interactive: true, transcript: () => transcript });
    const first = outputOf(await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook));
    expect(String(first.hookSpecificOutput?.additionalContext)).toContain("[toolgate] Denied by rule Bash(rm *)");
    const again = await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    expect(again.output).toBeUndefined(); // the same denial is not counted twice
    transcript = stubbornAfter(2);
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    const records = [...(await hook.session.recordedCallIds())].sort();
    expect(records).toEqual(["call_1", "call_2"]);
  });

  it("UserPromptSubmit headless: the abort at the threshold ends the run (continue: false), and keeps ending it", async () => {
    let transcript = stubbornAfter(1);
    const hook = context({ interactive: false, transcript: () => transcript });
    expect(outputOf(await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook)).continue).toBe(
      undefined,
    );
    transcript = stubbornAfter(2);
    const stopped = outputOf(await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook));
    expect(stopped.continue).toBe(false);
    expect(stopped.stopReason).toContain("toolgate aborted the run: run_shell_command was denied 2 times");
    expect(stopped.stopReason).toContain("deny rule Bash(rm *)");
    const later = outputOf(await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook));
    expect(later.continue).toBe(false);
  });

  it("UserPromptSubmit headless abort: the session's summary carries the waiting wasted call's tokens (no Stop, no SessionEnd follows)", async () => {
    const events: AuditEvent[] = [];
    const guard = createGuard({
      core: QWEN_ESCALATION_DEFAULTS,
      onError: () => undefined,
      sinks: [
        {
          deliver: async (effects) => {
            for (const effect of effects) if (effect.type === "audit") events.push(effect.event);
          },
        },
      ],
    });
    let transcript = stubbornAfter(1);
    const hook: HookContext = {
      session: guard.session("s1", { interactive: false, host: "qwen" }),
      interactive: false,
      readTranscript: () => transcript,
    };
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    // the second refusal of `rm -rf victim` is a wasted call; its request used 120 tokens (100 in, 20 out)
    transcript = stubbornAfter(2);
    expect(outputOf(await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook)).continue).toBe(false);
    await guard.drain();
    const summaries = events.filter((event) => event.kind === "session.summary");
    expect(summaries).toHaveLength(1);
    expect(summaries[0]?.detail).toMatchObject({ wastedTokens: 120, aborted: expect.anything() });
    expect((await hook.session.state()).tokens?.pending).toEqual([]);
  });

  it('a continuation (prompt "") is not a turn; a person\'s prompt is, and resets the per-turn counters', async () => {
    let transcript = stubbornAfter(1);
    const hook = context({ interactive: true, transcript: () => transcript });
    await handleQwenHook(payload("user-prompt-submit.json"), hook);
    expect((await hook.session.state()).turn).toBe(1);
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    transcript = stubbornAfter(2);
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    let state = await hook.session.state();
    expect(state.turn).toBe(1);
    expect(state.agents["main"]?.turnTotal).toBe(2);
    await handleQwenHook(payload("user-prompt-submit.json"), hook);
    state = await hook.session.state();
    expect(state.turn).toBe(2);
    expect(state.agents["main"]?.turnTotal).toBe(0);
    expect(state.agents["main"]?.total).toBe(2);
  });

  it("PreToolUse: denies a call toolgate's rules deny, keyed by the model's call id (tool_call_id)", async () => {
    const hook = context({ interactive: false, transcript: () => read("qwen/hook-run.chat.jsonl") });
    const answer = await handleQwenHook(
      payload("pre-tool-use.json", { tool_input: { command: "./notexec.sh" } }),
      context({ interactive: false }),
    );
    expect(outputOf(answer).hookSpecificOutput?.permissionDecision).toBeUndefined();
    const denied = outputOf(
      await handleQwenHook(payload("pre-tool-use.json", { tool_input: { command: "git push origin main" } }), hook),
    );
    expect(denied.hookSpecificOutput?.permissionDecision).toBe("deny");
    expect(String(denied.hookSpecificOutput?.permissionDecisionReason)).toContain("[toolgate]");
    expect([...(await hook.session.recordedCallIds())]).toEqual(["call_1"]);
    // a payload without tool_call_id: the transcript's call id, else Qwen's own id
    const older = context({ interactive: false, transcript: () => read("qwen/hook-run.chat.jsonl") });
    const withoutId = { tool_call_id: undefined };
    await handleQwenHook(payload("pre-tool-use.json", { ...withoutId, tool_input: { command: "git push" } }), older);
    await handleQwenHook(
      payload("post-tool-use-failure.json", { ...withoutId, tool_input: { command: "./notexec.sh" } }),
      older,
    );
    expect([...(await older.session.recordedCallIds())].sort()).toEqual([
      "call_2",
      expect.stringMatching(/^qwen-hook:toolu_/),
    ]);
  });

  it("PostToolUseFailure: an OS permission refusal is counted and the model is told it is a boundary", async () => {
    const hook = context({ interactive: false, transcript: () => read("qwen/hook-run.chat.jsonl") });
    const answer = outputOf(await handleQwenHook(payload("post-tool-use-failure.json"), hook));
    expect(String(answer.hookSpecificOutput?.additionalContext)).toContain("permission boundary");
    expect([...(await hook.session.recordedCallIds())]).toEqual(["call_2"]);
  });

  it("transcript backstop: waits for a written call's result before counting (Qwen writes it async)", async () => {
    let reads = 0;
    const hook = context({
      interactive: false,
      transcript: () => {
        reads += 1;
        // the call of step 2 is written but its result not yet, then both are there
        return reads === 1 ? stubbornPending(1) : stubbornAfter(2);
      },
    });
    await handleQwenHook(payload("user-prompt-submit-continuation.json"), hook);
    expect(reads).toBeGreaterThanOrEqual(2);
    expect([...(await hook.session.recordedCallIds())].sort()).toEqual(["call_1", "call_2"]);
  });

  it("never answers allow; an unreadable event blocks and a failing UserPromptSubmit stops the run", async () => {
    const hook = context({ interactive: false });
    const answer = await handleQwenHook(payload("pre-tool-use.json"), hook);
    expect(JSON.stringify(answer.output ?? {})).not.toContain("allow");
    expect(failClosed({ event: undefined, reason: "bad" }).exitCode).toBe(2);
    expect(outputOf(failClosed({ event: "UserPromptSubmit", reason: "store down" })).continue).toBe(false);
    expect(outputOf(failClosed({ event: "PreToolUse", reason: "x" })).hookSpecificOutput?.permissionDecision).toBe(
      "deny",
    );
    expect(() => parseQwenHookInput('{"hook_event_name":"PreToolUse","session_id":"s"}')).toThrow(/tool_name/);
  });
});

describe("handleQwenHook with transcript cursors (a long session's chat file read from where it was settled)", () => {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-qwen-cursor-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it("a Stop reads only the calls and results written since the last settled event, and leaves no cursor after a waiting call", async () => {
    const chat = join(directory, "chat.jsonl");
    const cursors = new Map<string, TranscriptCursor>();
    const resultLinesRead: number[] = [];
    let scans = 0;
    const hook: HookContext = {
      ...context({ interactive: false }),
      readTranscript: () => {
        throw new Error("the chat file is read through openTranscript");
      },
      openTranscript: (path, from, options) => {
        const lines = openTranscript(path, from, options);
        if (lines === undefined) return undefined;
        return {
          ...lines,
          next: lines.next,
          eachLine: (keep) => lines.eachLine(keep),
          lastWith: (needle, before, pick) => lines.lastWith(needle, before, pick),
          linesWith(needles) {
            const found = lines.linesWith(needles);
            if (needles.includes('"tool_result"')) {
              scans += 1;
              resultLinesRead.push(...found.map((line) => line.at));
            }
            return found;
          },
        };
      },
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    const stop = () => handleQwenHook(payload("stop.json", { transcript_path: chat }), hook);

    writeFileSync(chat, stubbornAfter(1));
    await stop();
    expect((await hook.session.state()).total).toBe(1);
    const first = cursors.get(chat)?.offset;
    expect(first).toBe(Buffer.byteLength(stubbornAfter(1)));

    writeFileSync(chat, stubbornAfter(2));
    resultLinesRead.length = 0;
    scans = 0;
    await stop();
    // one scan of the calls and results serves the settle check and the refusals
    expect(scans).toBe(1);
    expect((await hook.session.state()).total).toBe(2);
    // the first call and its refusal lie before the cursor: not read again
    expect(resultLinesRead.length).toBeGreaterThan(0);
    expect(resultLinesRead.every((at) => at >= (first ?? 0))).toBe(true);
    const second = cursors.get(chat)?.offset;
    expect(second).toBe(Buffer.byteLength(stubbornAfter(2)));

    // the third call written, its result not yet: after the settle wait, the cursor stays before that call
    writeFileSync(chat, stubbornPending(2));
    scans = 0;
    await stop();
    expect(cursors.get(chat)?.offset).toBe(second);
    // the wait polled the file until its deadline, and nothing new was written: its calls were scanned once
    expect(scans).toBe(1);

    writeFileSync(chat, read("transcripts/qwen/stubborn.chat.jsonl"));
    await stop();
    expect((await hook.session.state()).total).toBe(3);
    expect(cursors.get(chat)?.offset).toBe(Buffer.byteLength(read("transcripts/qwen/stubborn.chat.jsonl")));
  });

  it("polls the chat file as Qwen's writer appends to it: a result written during the wait is counted", async () => {
    const chat = join(directory, "late.jsonl");
    writeFileSync(chat, stubbornPending(2));
    const cursors = new Map<string, TranscriptCursor>();
    const hook: HookContext = {
      ...context({ interactive: false }),
      // what the hook process gives: one view of the file per event, unless opened `again`
      openTranscript: transcriptOpenerForOneEvent(),
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    const whole = read("transcripts/qwen/stubborn.chat.jsonl");
    const writer = setTimeout(() => writeFileSync(chat, whole), 100);
    try {
      await handleQwenHook(payload("stop.json", { transcript_path: chat }), hook);
    } finally {
      clearTimeout(writer);
    }
    expect((await hook.session.state()).total).toBe(3);
    expect(cursors.get(chat)?.offset).toBe(Buffer.byteLength(whole));
  });

  it("a chat file cut while it is read records nothing and moves no cursor", async () => {
    const chat = join(directory, "cut.jsonl");
    writeFileSync(chat, read("transcripts/qwen/stubborn.chat.jsonl"));
    const cursors = new Map<string, TranscriptCursor>();
    const hook: HookContext = {
      ...context({ interactive: false }),
      openTranscript: (path, from, options) => {
        const lines = openTranscript(path, from, { ...options, chunkBytes: 64 });
        // Qwen rewrote the file after the event opened it
        writeFileSync(chat, stubbornAfter(1));
        return lines;
      },
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    await handleQwenHook(payload("stop.json", { transcript_path: chat }), hook);
    expect((await hook.session.state()).total).toBe(0);
    expect(cursors.size).toBe(0);
  });
});
