import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { openStore } from "../store/open-store.js";
import { runAnalyze } from "./run-analyze.js";

const fixtures = resolve("test/fixtures/transcripts");
const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function sandbox() {
  const root = mkdtempSync(join(tmpdir(), "toolgate-run-analyze-"));
  roots.push(root);
  const home = join(root, "home");
  mkdirSync(home);
  const out: string[] = [];
  const err: string[] = [];
  const io = {
    cwd: root,
    homeDir: home,
    env: { TOOLGATE_DB: join(root, "toolgate.db") },
    stdout: { write: (text: string) => out.push(text) },
    stderr: { write: (text: string) => err.push(text), isTTY: false },
  };
  return { root, home, io, out, err };
}

describe("toolgate analyze", () => {
  test("with no path on a machine with no agent history: says which default locations it searched", async () => {
    const { home, io, out } = sandbox();
    const document = await runAnalyze({ ...io, paths: [], save: false, json: false });
    expect(document.totals.sessions).toBe(0);
    const text = out.join("");
    expect(text).toContain("No agent history found on this machine.");
    for (const location of [
      ".claude/projects",
      ".codex/sessions",
      ".gemini/tmp",
      ".qwen/projects",
      ".local/share/opencode/opencode.db",
      ".local/share/kilo/kilo.db",
    ]) {
      expect(text).toContain(join(home, location));
    }
  });

  test("with no path finds a copied home's hidden host folders; the headline leads the output", async () => {
    const { home, io, out } = sandbox();
    mkdirSync(join(home, ".claude", "projects", "-tmp-project"), { recursive: true });
    cpSync(
      join(fixtures, "claude-code/stubborn.session.jsonl"),
      join(home, ".claude/projects/-tmp-project/797be256.jsonl"),
    );
    mkdirSync(join(home, ".local/share/opencode"), { recursive: true });
    cpSync(join(fixtures, "opencode/legitimate.db"), join(home, ".local/share/opencode/opencode.db"));
    mkdirSync(join(home, ".local/share/kilo"), { recursive: true });
    cpSync(join(fixtures, "kilo/legitimate.db"), join(home, ".local/share/kilo/kilo.db"));
    await runAnalyze({ ...io, paths: [], save: false, json: false });
    const lines = out.join("").split("\n");
    expect(lines[0]).toBe("3 of 11 tool calls across 3 sessions were denied; 1 was a retry toolgate would have saved.");
    // a deny rule refused every call: no allow rule is suggested, which would not win over it (issue 26 item 4)
    expect(out.join("")).toContain("denied by: rule 3");
    expect(out.join("")).not.toContain("Suggested allow rules");
    // the same copied home given as a directory: hidden folders are walked
    out.length = 0;
    await runAnalyze({ ...io, paths: [home], save: false, json: false });
    expect(out.join("").split("\n")[0]).toBe(lines[0]);
  });

  test("a transcript that cannot be read is listed in skippedFiles with its reason, not dropped (issue 26 item 7)", async () => {
    const { io, out } = sandbox();
    const folder = mkdtempSync(join(tmpdir(), "toolgate-analyze-unreadable-"));
    try {
      cpSync(join(fixtures, "codex/stubborn.rollout.jsonl"), join(folder, "rollout.jsonl"));
      symlinkSync(join(folder, "gone.jsonl"), join(folder, "broken.jsonl"));
      symlinkSync(join(folder, "rollout.jsonl"), join(folder, "linked.jsonl"));
      await runAnalyze({ ...io, paths: [folder], save: false, json: true });
      const document = JSON.parse(out.join(""));
      expect(document.skippedFiles).toContainEqual({
        file: join(folder, "broken.jsonl"),
        reason: "cannot be read (ENOENT)",
      });
      // a link to a readable transcript, or a copy of it (a backup), holds only calls already read: counted once, and
      // the second file is listed with the first, not merged without a word
      expect(document.totals).toMatchObject({ files: 1, sessions: 1 });
      const copies = document.skippedFiles.filter(
        (skipped: { file: string }) => !skipped.file.endsWith("broken.jsonl"),
      );
      expect(copies).toEqual([
        {
          file: join(folder, "rollout.jsonl"),
          reason: `holds only calls already read from ${join(folder, "linked.jsonl")} (the same codex session), counted once`,
        },
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  test("a file that fails while being read (a corrupt database) is listed in skippedFiles; the run goes on", async () => {
    const { io, out, root } = sandbox();
    const corrupt = join(root, "opencode.db");
    // the first 8 KiB of a recorded opencode database: a SQLite header, the rest cut off
    writeFileSync(corrupt, readFileSync(join(fixtures, "opencode/stubborn.db")).subarray(0, 8192));
    const rollout = join(fixtures, "codex/stubborn.rollout.jsonl");
    await runAnalyze({ ...io, paths: [corrupt, rollout], save: false, json: true });
    const document = JSON.parse(out.join(""));
    expect(document.skippedFiles).toEqual([{ file: corrupt, reason: "cannot be read (SQLITE_CORRUPT)" }]);
    expect(document.totals).toMatchObject({ files: 1, sessions: 1, denials: 3 });
  });

  test("--json prints the documented document", async () => {
    const { io, out } = sandbox();
    const globs = [join(fixtures, "gemini/stubborn.*"), join(fixtures, "gemini/legitimate.*")];
    await runAnalyze({ ...io, paths: globs, save: false, json: true });
    const document = JSON.parse(out.join(""));
    expect(Object.keys(document)).toEqual([
      "version",
      "sessions",
      "totals",
      "skippedLines",
      "searched",
      "unrecognizedFiles",
      "skippedFiles",
    ]);
    expect(Object.keys(document.sessions[0])).toEqual(
      expect.arrayContaining([
        "file",
        "host",
        "sessionId",
        "toolCalls",
        "denials",
        "deniedBySource",
        "loops",
        "wastedCalls",
        "savedCalls",
        "suggestedRules",
      ]),
    );
    // stream, session, -o json log and plain text log of each; the legitimate text log shows no call (unrecognized).
    // A session read as its session file and its stream-json log is one session (issue 26: "12 of 12 across 4
    // sessions" on stdout, "9 denials in 3 sessions" from the store): counted once, the other file listed as skipped
    expect(document.totals).toMatchObject({ files: 7, sessions: 5, denials: 9, savedCalls: 3 });
    expect(document.skippedFiles.map((skipped: { file: string }) => basename(skipped.file)).sort()).toEqual([
      "legitimate.stream.jsonl",
      "stubborn.stream.jsonl",
    ]);
    expect(document.unrecognizedFiles).toEqual([join(fixtures, "gemini/legitimate.text.log")]);
  });

  test("a `claude -p` text log under --host claude-code: skipped, and the text output says why", async () => {
    const { io, out } = sandbox();
    const file = join(fixtures, "claude-code/stubborn.text.log");
    const document = await runAnalyze({ ...io, paths: [file], host: "claude-code", save: false, json: false });
    expect(document.skippedFiles).toEqual([{ file, reason: expect.stringContaining("only the final answer") }]);
    expect(document.unrecognizedFiles).toEqual([]);
    expect(out.join("")).toContain(
      `Skipped ${file}: Claude Code's \`claude -p\` text output holds only the final answer`,
    );
  });

  test("--save is idempotent: analysing the same files twice adds nothing", async () => {
    const { io, err, root } = sandbox();
    // the Qwen run twice: its chat file and its stream-json output hold the same three denials
    const paths = [
      join(fixtures, "claude-code/stubborn.session.jsonl"),
      join(fixtures, "qwen/stubborn.chat.jsonl"),
      join(fixtures, "qwen/stubborn.stream.jsonl"),
    ];
    await runAnalyze({ ...io, paths, save: true, json: true });
    await runAnalyze({ ...io, paths, save: true, json: true });
    expect(err.join("")).toContain("offered 6 denial records");
    const store = await openStore({ env: { TOOLGATE_DB: join(root, "toolgate.db") } });
    try {
      const rows = await store.denials.query();
      expect(rows).toHaveLength(6);
      expect(new Set(rows.map((row) => row.source))).toEqual(new Set(["rule"]));
      const report = await store.denials.report({ since: 0 });
      expect(report).toMatchObject({ total: 6, sessions: 2 });
    } finally {
      await store.close();
    }
  });

  test("a path that matches nothing is a usage error that says what to give", async () => {
    const { io } = sandbox();
    await expect(runAnalyze({ ...io, paths: ["no-such-dir/*.jsonl"], save: false, json: false })).rejects.toMatchObject(
      {
        code: "INPUT_INVALID",
      },
    );
  });
});

describe("redaction and progress", () => {
  test("a secret in a denied call never reaches the output", async () => {
    const { io, out, root } = sandbox();
    const secret = "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5";
    const lines = readFileSync(join(fixtures, "claude-code/stubborn.session.jsonl"), "utf8").replaceAll(
      "rm -rf victim",
      `curl -H 'Authorization: token ${secret}' https://api.github.com/x && rm -rf victim`,
    );
    const file = join(root, "secret.jsonl");
    writeFileSync(file, lines);
    const document = await runAnalyze({ ...io, paths: [file], save: false, json: true });
    expect(document.totals.denials).toBe(3);
    expect(out.join("")).not.toContain(secret);
    out.length = 0;
    await runAnalyze({ ...io, paths: [file], save: false, json: false });
    expect(out.join("")).toContain("denied");
    expect(out.join("")).not.toContain(secret);
  });

  test("a progress bar on stderr only when stderr is a terminal", async () => {
    const quiet = sandbox();
    await runAnalyze({ ...quiet.io, paths: [join(fixtures, "codex")], save: false, json: false });
    expect(quiet.err.join("")).toBe("");
    const tty = sandbox();
    const stderr = { write: (text: string) => tty.err.push(text), isTTY: true };
    await runAnalyze({ ...tty.io, stderr, paths: [join(fixtures, "codex")], save: false, json: false });
    expect(tty.err.join("")).toContain("analyzing [");
  });
});
