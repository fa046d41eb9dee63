import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import type { HookContext } from "../common/hook-host.js";
import { openTranscript } from "../common/read-transcript.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
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

describe("geminiTranscriptDenials through a window, and AfterAgent with the session's transcript cursor", () => {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-gemini-cursor-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const files = ["stubborn.session.jsonl", "ask.session.jsonl", "eacces.session.jsonl", "legitimate.session.jsonl"];

  it("reads the file's text at every point Gemini can have written, and after every cursor only what was appended", () => {
    const file = join(directory, "session.jsonl");
    let compared = 0;
    for (const name of files) {
      const lines = session(name).trimEnd().split("\n");
      for (let count = 0; count <= lines.length; count += 1) {
        // every whole line written, and the next one half written
        const cut = lines[count] === undefined ? "" : lines[count]!.slice(0, lines[count]!.length >> 1);
        const text = `${lines.slice(0, count).join("\n")}${count > 0 ? "\n" : ""}${cut}`;
        writeFileSync(file, text);
        const opened = openTranscript(file, undefined, { chunkBytes: 61 })!;
        expect(opened.searchedText(), `${name} at ${count}`).toBe(text);
        // a cursor left after these whole lines: a later read finds what the lines appended since show
        if (count === 0) continue;
        writeFileSync(file, `${lines.slice(0, count).join("\n")}\n`);
        const cursor = openTranscript(file)!.next;
        expect(cursor).toBeDefined();
        for (let more = count; more <= lines.length; more += 1) {
          writeFileSync(file, `${lines.slice(0, more).join("\n")}\n`);
          const since = openTranscript(file, cursor, { chunkBytes: 97 })!.searchedText();
          const appended = more === count ? "" : `${lines.slice(count, more).join("\n")}\n`;
          expect(since, `${name} ${count}..${more}`).toBe(appended);
          expect(geminiTranscriptDenials(since)).toEqual(geminiTranscriptDenials(appended));
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("AfterAgent reads only the records appended since the last one; a file cut while it is read records nothing", async () => {
    const path = join(directory, "live.jsonl");
    const whole = session("stubborn.session.jsonl");
    const lines = whole.trimEnd().split("\n");
    // the session file as it stood after the first refusal's record was written
    const firstRefusal = lines.findIndex((line) => line.includes('"status":"error"'));
    expect(firstRefusal).toBeGreaterThan(0);
    const early = `${lines.slice(0, firstRefusal + 1).join("\n")}\n`;
    const cursors = new Map<string, TranscriptCursor>();
    const textsRead: string[] = [];
    const guard = createGuard({ onError: () => undefined });
    const hook: HookContext = {
      session: guard.session("s1", { interactive: false, host: "gemini" }),
      interactive: false,
      readTranscript: () => {
        throw new Error("the session file is read through openTranscript");
      },
      openTranscript: (file, from, options) => {
        const opened = openTranscript(file, from, { ...options, chunkBytes: 128 });
        if (opened === undefined) return undefined;
        return {
          ...opened,
          next: opened.next,
          eachLine: (keep) => opened.eachLine(keep),
          lastWith: (needle, before, pick) => opened.lastWith(needle, before, pick),
          linesWith: (needles) => opened.linesWith(needles),
          searchedText() {
            const text = opened.searchedText();
            textsRead.push(text);
            return text;
          },
        };
      },
      transcriptCursors: { read: (file) => cursors.get(file), write: (file, cursor) => void cursors.set(file, cursor) },
    };
    const afterAgent = parseGeminiHookInput(
      JSON.stringify({ hook_event_name: "AfterAgent", session_id: "s1", transcript_path: path }),
    );
    writeFileSync(path, early);
    await handleGeminiHook(afterAgent, hook);
    expect((await hook.session.recordedCallIds()).size).toBe(1);
    expect(cursors.get(path)?.offset).toBe(Buffer.byteLength(early));

    writeFileSync(path, whole);
    textsRead.length = 0;
    await handleGeminiHook(afterAgent, hook);
    expect((await hook.session.recordedCallIds()).size).toBe(3);
    // the first refusal's record lies before the cursor: not read again
    expect(textsRead).toEqual([whole.slice(early.length)]);
    expect(cursors.get(path)?.offset).toBe(Buffer.byteLength(whole));

    // another session whose file Gemini rewrote after the event opened it
    const cut = join(directory, "cut.jsonl");
    writeFileSync(cut, whole);
    const cutCursors = new Map<string, TranscriptCursor>();
    const cutHook: HookContext = {
      session: guard.session("s2", { interactive: false, host: "gemini" }),
      interactive: false,
      readTranscript: () => undefined,
      openTranscript: (file, from, options) => {
        const opened = openTranscript(file, from, { ...options, chunkBytes: 64 });
        writeFileSync(cut, early);
        return opened;
      },
      transcriptCursors: { read: (file) => cutCursors.get(file), write: (file, c) => void cutCursors.set(file, c) },
    };
    await handleGeminiHook(
      parseGeminiHookInput(JSON.stringify({ hook_event_name: "AfterAgent", session_id: "s2", transcript_path: cut })),
      cutHook,
    );
    expect((await cutHook.session.recordedCallIds()).size).toBe(0);
    expect(cutCursors.size).toBe(0);
  });
});
