import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { canonicalJson } from "../../core/canonical-json.js";
import { openTranscript } from "../common/read-transcript.js";
import {
  classifyQwenDenial,
  findQwenCallId,
  findQwenTranscriptDenials,
  pendingQwenCalls,
  qwenToolStepWritten,
} from "./qwen-transcript.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const transcript = (path: string) => readFileSync(join(fixtures, path), "utf8");

describe("findQwenTranscriptDenials (Qwen Code 0.24.4 chat files)", () => {
  it("finds every call Qwen's own deny rule refused, once, with the model's call id, input and rule", () => {
    const denials = findQwenTranscriptDenials(transcript("transcripts/qwen/stubborn.chat.jsonl"));
    expect(denials.map((denial) => denial.toolUseId)).toEqual(["call_1", "call_2", "call_3"]);
    expect(denials[2]).toMatchObject({
      tool: "run_shell_command",
      input: { command: "rm -rf ./victim" },
      source: "rule",
      rule: "Bash(rm *)",
    });
    expect(denials[0]?.text).toContain('Matching deny rule: "Bash(rm *)"');
  });

  it("counts a hook's refusal (execution_denied) but not an OS-level failure or a success", () => {
    const denials = findQwenTranscriptDenials(transcript("qwen/hook-run.chat.jsonl"));
    expect(denials).toHaveLength(1);
    expect(denials[0]).toMatchObject({ toolUseId: "call_3", source: "hook", input: { command: "echo two" } });
  });

  it("ignores lines that are not JSON objects (a line cut by a concurrent write)", () => {
    const text = transcript("transcripts/qwen/stubborn.chat.jsonl");
    const cut = `${text}{"type":"tool_result","toolCallRes`;
    expect(findQwenTranscriptDenials(cut)).toHaveLength(3);
  });
});

describe("classifyQwenDenial", () => {
  it("names the source of each of Qwen's refusal texts", () => {
    expect(
      classifyQwenDenial(
        'This "run_shell_command" invocation was denied by permission rules. Matching deny rule: "edit".',
      ),
    ).toEqual({ source: "rule", rule: "edit" });
    expect(
      classifyQwenDenial(
        'Qwen Code requires permission to use "run_shell_command", but that permission was declined. Matching deny rule: "run_shell_command".',
      ),
    ).toEqual({ source: "rule", rule: "run_shell_command" });
    expect(
      classifyQwenDenial(
        'Qwen Code requires permission to use "run_shell_command", but that permission was declined (non-interactive mode cannot prompt for confirmation).',
      ),
    ).toEqual({ source: "headless" });
    expect(classifyQwenDenial("Blocked by auto mode policy: pushes are risky\nDo not try...")).toEqual({
      source: "classifier",
    });
    expect(classifyQwenDenial("[toolgate] Denied by rule Bash(rm *)")).toEqual({ source: "hook" });
  });
});

describe("findQwenCallId", () => {
  it("maps a hook's call (tool + arguments) to the model's call id the transcript uses", () => {
    const text = transcript("qwen/hook-run.chat.jsonl");
    expect(findQwenCallId({ transcript: text, tool: "run_shell_command", input: { command: "./notexec.sh" } })).toBe(
      "call_2",
    );
    expect(
      findQwenCallId({ transcript: text, tool: "run_shell_command", input: { command: "echo never" } }),
    ).toBeUndefined();
  });
});

describe("pendingQwenCalls", () => {
  it("names the calls written without a result yet", () => {
    const lines = readFileSync(join(fixtures, "transcripts/qwen/stubborn.chat.jsonl"), "utf8").split("\n");
    const secondResult = lines.findIndex((line, index) => index > 6 && line.includes('"type":"tool_result"'));
    expect(pendingQwenCalls(lines.slice(0, secondResult).join("\n"))).toEqual(["call_2"]);
    expect(pendingQwenCalls(lines.join("\n"))).toEqual([]);
  });
});

/**
 * The chat reader before it searched lines (every line parsed, in order): what the lines-based functions must answer,
 * whether given the text or the file read through a window, and after a cursor left where the chat was settled.
 */
const reference = {
  records(text: string): Record<string, unknown>[] {
    const out: Record<string, unknown>[] = [];
    for (const line of text.split("\n")) {
      if (line.length === 0 || line[0] !== "{") continue;
      try {
        const value = JSON.parse(line) as unknown;
        if (typeof value === "object" && value !== null && !Array.isArray(value))
          out.push(value as Record<string, unknown>);
      } catch {}
    }
    return out;
  },
  parts(record: Record<string, unknown>): Record<string, unknown>[] {
    const parts = (record["message"] as { parts?: unknown } | undefined)?.parts;
    return Array.isArray(parts) ? parts.filter((part) => typeof part === "object" && part !== null) : [];
  },
  calls(record: Record<string, unknown>): { id: string; tool: string; input: unknown }[] {
    if (record["type"] !== "assistant") return [];
    return reference.parts(record).flatMap((part) => {
      const call = part["functionCall"] as { id?: unknown; name?: unknown; args?: unknown } | undefined;
      return typeof call?.id === "string" && typeof call.name === "string"
        ? [{ id: call.id, tool: call.name, input: call.args ?? {} }]
        : [];
    });
  },
  denials(text: string) {
    const calls = new Map<string, { tool: string; input: unknown }>();
    const out: { toolUseId: string; tool: string; input: unknown; text: string }[] = [];
    const seen = new Set<string>();
    for (const record of reference.records(text)) {
      for (const call of reference.calls(record)) calls.set(call.id, call);
      const result = record["toolCallResult"] as { callId?: unknown; errorType?: unknown; resultDisplay?: unknown };
      if (record["type"] !== "tool_result" || result?.errorType !== "execution_denied") continue;
      for (const part of reference.parts(record)) {
        const response = part["functionResponse"] as { id?: unknown; name?: unknown; response?: unknown } | undefined;
        if (response === undefined) continue;
        const id =
          typeof response.id === "string" ? response.id : typeof result.callId === "string" ? result.callId : undefined;
        if (id === undefined || seen.has(id)) continue;
        seen.add(id);
        const body = (response.response ?? {}) as { error?: unknown };
        const refusal =
          typeof body.error === "string"
            ? body.error
            : typeof result.resultDisplay === "string"
              ? result.resultDisplay
              : "";
        if (refusal.startsWith("[toolgate]")) continue;
        const call = calls.get(id);
        out.push({
          toolUseId: id,
          tool: call?.tool ?? (typeof response.name === "string" ? response.name : "unknown"),
          input: call?.input ?? {},
          text: refusal,
        });
      }
    }
    return out;
  },
  pending(text: string): string[] {
    const calls: string[] = [];
    const answered = new Set<string>();
    for (const record of reference.records(text)) {
      for (const call of reference.calls(record)) calls.push(call.id);
      if (record["type"] !== "tool_result") continue;
      const callId = (record["toolCallResult"] as { callId?: unknown } | undefined)?.callId;
      if (typeof callId === "string") answered.add(callId);
      for (const part of reference.parts(record)) {
        const id = (part["functionResponse"] as { id?: unknown } | undefined)?.id;
        if (typeof id === "string") answered.add(id);
      }
    }
    return calls.filter((id) => !answered.has(id));
  },
  stepWritten(text: string): boolean {
    let last: unknown;
    for (const record of reference.records(text)) {
      if (["user", "assistant", "tool_result"].includes(record["type"] as string)) last = record["type"];
    }
    return last === "tool_result" && reference.pending(text).length === 0;
  },
  callId(text: string, tool: string, input: unknown): string | undefined {
    let found: string | undefined;
    for (const record of reference.records(text))
      for (const call of reference.calls(record))
        if (call.tool === tool && canonicalJson(call.input) === canonicalJson(input ?? {})) found = call.id;
    return found;
  },
};

describe("the chat functions over lines (a chat file searched, not parsed whole)", () => {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-qwen-chat-"));
  afterAll(() => rmSync(directory, { recursive: true, force: true }));
  const chats = [
    "transcripts/qwen/stubborn.chat.jsonl",
    "transcripts/qwen/ask.chat.jsonl",
    "transcripts/qwen/eacces.chat.jsonl",
    "transcripts/qwen/legitimate.chat.jsonl",
    "qwen/hook-run.chat.jsonl",
  ];
  const denialFacts = (denials: ReturnType<typeof findQwenTranscriptDenials>) =>
    denials.map(({ toolUseId, tool, input, text }) => ({ toolUseId, tool, input, text }));

  it("answers as the whole-text reader did at every point Qwen can have written, as text and through a window", () => {
    const file = join(directory, "chat.jsonl");
    let compared = 0;
    for (const chat of chats) {
      const lines = transcript(chat).trimEnd().split("\n");
      const calls = lines.flatMap((line) => reference.records(line).flatMap(reference.calls));
      expect(calls.length).toBeGreaterThan(0);
      for (let count = 0; count <= lines.length; count += 1) {
        // every whole line written, and the next one half written
        const cut = lines[count] === undefined ? "" : lines[count]!.slice(0, lines[count]!.length >> 1);
        const text = `${lines.slice(0, count).join("\n")}${count > 0 ? "\n" : ""}${cut}`;
        writeFileSync(file, text);
        for (const chatOf of [() => text, () => openTranscript(file, undefined, { chunkBytes: 61 })!]) {
          expect(denialFacts(findQwenTranscriptDenials(chatOf())), `${chat} at ${count}`).toEqual(
            reference.denials(text),
          );
          expect(pendingQwenCalls(chatOf())).toEqual(reference.pending(text));
          expect(qwenToolStepWritten(chatOf())).toBe(reference.stepWritten(text));
          for (const call of calls) {
            expect(findQwenCallId({ transcript: chatOf(), tool: call.tool, input: call.input })).toBe(
              reference.callId(text, call.tool, call.input),
            );
          }
          compared += 1;
        }
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it("after a cursor left where every call had its result, finds the refusals and waiting calls written since", () => {
    const file = join(directory, "cursor.jsonl");
    let checked = 0;
    for (const chat of chats) {
      const lines = transcript(chat).trimEnd().split("\n");
      for (let settledAt = 1; settledAt < lines.length; settledAt += 1) {
        const before = `${lines.slice(0, settledAt).join("\n")}\n`;
        if (reference.pending(before).length > 0) continue;
        writeFileSync(file, before);
        const cursor = openTranscript(file)!.next;
        expect(cursor).toBeDefined();
        for (let count = settledAt; count <= lines.length; count += 1) {
          const text = `${lines.slice(0, count).join("\n")}\n`;
          writeFileSync(file, text);
          const since = openTranscript(file, cursor, { chunkBytes: 97 })!;
          const earlier = new Set(reference.denials(before).map((denial) => denial.toolUseId));
          expect(denialFacts(findQwenTranscriptDenials(since)), `${chat} ${settledAt}..${count}`).toEqual(
            reference.denials(text).filter((denial) => !earlier.has(denial.toolUseId)),
          );
          expect(pendingQwenCalls(since)).toEqual(reference.pending(text));
          expect(qwenToolStepWritten(since)).toBe(reference.stepWritten(text));
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
