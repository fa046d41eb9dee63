import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTranscript } from "../hosts/common/read-transcript.js";
import { transcriptCursorFiles } from "./transcript-cursor-files.js";

let root: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-transcript-cursor-"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const use = (id: string, command: string) =>
  `${JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } })}\n`;
const result = (id: string) =>
  `${JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, is_error: true, content: "Permission to use Bash has been denied." }] } })}\n`;
/** the ids the complete result lines answer (a line still being written does not parse, and is skipped as Stop does) */
const results = (lines: { line: string }[]) =>
  lines.flatMap(({ line }) => {
    try {
      return [JSON.parse(line).message.content[0].tool_use_id as string];
    } catch {
      return [];
    }
  });

describe("transcriptCursorFiles", () => {
  it("keeps one cursor per session and transcript path, only in a directory that exists", () => {
    const state = join(root, "state");
    mkdirSync(state);
    const cursors = transcriptCursorFiles({ directory: state, sessionId: "s1" });
    expect(cursors.read("/t/a.jsonl")).toBeUndefined();
    cursors.write("/t/a.jsonl", { offset: 10, check: "eA==" });
    expect(cursors.read("/t/a.jsonl")).toEqual({ offset: 10, check: "eA==" });
    expect(cursors.read("/t/b.jsonl")).toBeUndefined();
    expect(transcriptCursorFiles({ directory: state, sessionId: "s2" }).read("/t/a.jsonl")).toBeUndefined();
    expect(readdirSync(state)).toEqual([expect.stringMatching(/^s-s1\.[0-9a-f]{8}\.cursor$/)]);
    const nowhere = transcriptCursorFiles({ directory: join(root, "missing"), sessionId: "s1" });
    nowhere.write("/t/a.jsonl", { offset: 10, check: "eA==" });
    expect(nowhere.read("/t/a.jsonl")).toBeUndefined();
  });
});

describe("openTranscript from a cursor", () => {
  it("searches only what was appended since, finds a call made before it, and leaves a partial line for later", () => {
    const path = join(root, "transcript.jsonl");
    writeFileSync(path, use("A", "rm a") + result("A") + use("B", "rm b"));
    const first = openTranscript(path);
    expect(results(first?.linesWith(['"is_error"']) ?? [])).toEqual(["A"]);
    const cursor = first?.next;
    expect(cursor?.offset).toBe((use("A", "rm a") + result("A") + use("B", "rm b")).length);
    // B's result after the cursor, its call before it; then a line still being written
    appendFileSync(path, `${result("B")}{"type":"user","message":{"content":[{"type":"tool_result","is_error"`);
    const second = openTranscript(path, cursor);
    const found = second?.linesWith(['"is_error"']) ?? [];
    expect(results(found)).toEqual(["B"]);
    expect(second?.lastWith('"B"', found[0]?.at ?? 0, (line) => (line.includes("tool_use") ? line : undefined))).toBe(
      use("B", "rm b").trimEnd(),
    );
    expect(second?.next?.offset).toBe((use("A", "rm a") + result("A") + use("B", "rm b") + result("B")).length);
  });

  it("searches the whole transcript again when the bytes before the cursor changed or the file is shorter", () => {
    const path = join(root, "transcript.jsonl");
    writeFileSync(path, use("A", "rm a") + result("A"));
    const cursor = openTranscript(path)?.next;
    expect(results(openTranscript(path, cursor)?.linesWith(['"is_error"']) ?? [])).toEqual([]);
    // rewritten under the same path, the same length: another session's lines
    writeFileSync(path, use("C", "rm c") + result("C"));
    expect(results(openTranscript(path, cursor)?.linesWith(['"is_error"']) ?? [])).toEqual(["C"]);
    writeFileSync(path, result("D"));
    expect(results(openTranscript(path, cursor)?.linesWith(['"is_error"']) ?? [])).toEqual(["D"]);
  });
});
