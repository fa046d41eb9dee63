import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { GuardSession } from "../../guard/types.js";
import { openTranscript, readTranscript } from "../common/read-transcript.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
import type { ClaudeHookContext } from "./handle-hook.js";
import { reconcileTranscript } from "./reconcile-transcript.js";

let root: string;
let path: string;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-reconcile-"));
  path = join(root, "transcript.jsonl");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

const use = (id: string, command: string) =>
  `${JSON.stringify({ type: "assistant", message: { content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } })}\n`;
const result = (id: string) =>
  `${JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: id, is_error: true, content: "Permission to use Bash with command rm has been denied." }] } })}\n`;

/** A context whose session notes what it is asked to record (or fails), with in-memory cursors. */
function context(options: { fail?: boolean } = {}) {
  const asked: { toolUseId: string; tool: string; input: unknown }[][] = [];
  const cursors = new Map<string, TranscriptCursor>();
  const session = {
    async deniedUnlessRecorded(denials: readonly { call: { toolUseId: string; tool: string; input: unknown } }[]) {
      if (options.fail === true) throw new Error("state store unwritable");
      asked.push(denials.map(({ call }) => call));
      return [];
    },
  } as unknown as GuardSession;
  const value: ClaudeHookContext = {
    session,
    interactive: false,
    readTranscript,
    openTranscript,
    transcriptCursors: { read: (at) => cursors.get(at), write: (at, cursor) => cursors.set(at, cursor) },
  };
  return { value, asked, cursors };
}

describe("reconcileTranscript with the session's transcript cursors", () => {
  it("asks only about the results appended since the last reconcile, with the call made before it", async () => {
    writeFileSync(path, use("A", "rm a") + result("A") + use("B", "rm b"));
    const { value, asked, cursors } = context();
    await reconcileTranscript({ context: value, path });
    expect(asked).toEqual([[{ toolUseId: "A", tool: "Bash", input: { command: "rm a" } }]]);
    expect(cursors.get(path)?.offset).toBeGreaterThan(0);
    appendFileSync(path, result("B"));
    await reconcileTranscript({ context: value, path });
    expect(asked[1]).toEqual([{ toolUseId: "B", tool: "Bash", input: { command: "rm b" } }]);
    await reconcileTranscript({ context: value, path });
    expect(asked).toHaveLength(2); // nothing new: nothing asked
  });

  it("moves no cursor when recording failed, so the next reconcile asks again", async () => {
    writeFileSync(path, use("A", "rm a") + result("A"));
    const failing = context({ fail: true });
    await expect(reconcileTranscript({ context: failing.value, path })).rejects.toThrow(/unwritable/);
    expect(failing.cursors.size).toBe(0);
  });

  it("a transcript cut while the reconcile reads it: nothing recorded, no cursor moved, the next reconcile reads it", async () => {
    writeFileSync(path, use("A", "rm a") + result("A"));
    const { value, asked, cursors } = context();
    // a small window, and the file cut just after the view was opened: the search has to read it again, and fails
    value.openTranscript = (at, from) => {
      const view = openTranscript(at, from, { chunkBytes: 16 });
      writeFileSync(path, "");
      return view;
    };
    await expect(reconcileTranscript({ context: value, path })).resolves.toEqual([]);
    expect(asked).toEqual([]);
    expect(cursors.size).toBe(0);
    writeFileSync(path, use("A", "rm a") + result("A"));
    value.openTranscript = openTranscript;
    await reconcileTranscript({ context: value, path });
    expect(asked).toEqual([[{ toolUseId: "A", tool: "Bash", input: { command: "rm a" } }]]);
  });
});
