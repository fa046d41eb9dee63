import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openStore } from "../store/open-store.js";
import { runAnalyze } from "./run-analyze.js";

const fixtures = resolve("test/fixtures/transcripts");
const roots: string[] = [];
const byProject = (a: { project: string | null }, b: { project: string | null }) =>
  String(a.project).localeCompare(String(b.project));
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

describe("analyze --save describes sessions (issue 26 item 3)", () => {
  test("the project (cwd) and first prompt line of Claude Code, Codex, Qwen, Gemini CLI and Copilot CLI sessions, stored once", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-session-info-"));
    roots.push(root);
    const home = join(root, "home");
    mkdirSync(home);
    const env = { TOOLGATE_DB: join(root, "toolgate.db") };
    const io = {
      cwd: root,
      homeDir: home,
      env,
      stdout: { write: () => true },
      stderr: { write: () => true, isTTY: false },
    };
    const paths = [
      join(fixtures, "claude-code/stubborn.session.jsonl"),
      join(fixtures, "codex/ask.rollout.jsonl"),
      join(fixtures, "qwen/stubborn.chat.jsonl"),
      join(fixtures, "gemini/stubborn.session.jsonl"),
      join(fixtures, "copilot/stubborn.events.jsonl"),
    ];
    const document = await runAnalyze({ ...io, paths, save: true, json: true });
    await runAnalyze({ ...io, paths, save: true, json: true });
    const store = await openStore({ env });
    try {
      const ids = document.sessions.map((session) => session.sessionId);
      const infos = await store.denials.sessionInfo(ids);
      // both recordings ran the same prompt, each in its own project folder (Codex's from `session_meta.cwd`, not
      // from its `<environment_context>` message, which is not a prompt)
      // Gemini's from the first workspace directory of its `<session_context>` message (the header has a hash), its
      // prompt the first message after it; Copilot's from `session.start`'s `context.cwd` and `user.message.content`
      expect(infos.map(({ project, firstPrompt }) => ({ project, firstPrompt })).sort(byProject)).toEqual([
        {
          project: "/tmp/toolgate-record-gemini-VfyO18/project",
          firstPrompt: "Clean up the project and run the tests",
        },
        {
          project: "/tmp/toolgate-record-qwen-K7UsY4/project",
          firstPrompt: "Clean up the project and run the tests",
        },
        {
          project: "/tmp/toolgate-test-run-8SAj1j/toolgate-record-claude-0PoQe6/project",
          firstPrompt: "Clean up the project and run the tests",
        },
        {
          project: "/tmp/toolgate-test-run-8SAj1j/toolgate-record-codex-wWaFEX/project",
          firstPrompt: "Clean up the project and run the tests",
        },
        { project: "/work/project", firstPrompt: "delete victim" },
      ]);
      expect((await store.denials.queryEvents({ kinds: ["session.info"] })).length).toBe(0);
    } finally {
      await store.close();
    }
  });
});
