import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { analyzeTranscripts } from "./analyze-transcripts.js";
import { findTranscripts } from "./find-transcripts.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";

/** Loop kinds, legitimate repetition, subagents, corrupt lines and `--host`, on transcripts in the recorded shapes. */
const fixtures = resolve("test/fixtures/transcripts");
const scratch = mkdtempSync(join(tmpdir(), "toolgate-analyze-shapes-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const setup = await loadAnalysisSetup({ cwd: scratch, homeDir: scratch, env: {} });

async function run(files: string[], host?: "qwen") {
  return analyzeTranscripts({ files, config: setup.config, canGrant: setup.canGrant, ...(host ? { host } : {}) });
}

describe("legitimate repetition stays silent", () => {
  test("a test run twice, one file read at two offsets, a build retried after a fix, repeated output lines", async () => {
    const result = await run([join(fixtures, "shapes/legitimate-repetition.session.jsonl")]);
    const session = result.sessions[0]?.analysis;
    expect(session?.toolCalls).toBe(8);
    expect(session?.denialCount).toBe(0);
    expect(session?.loops).toEqual([]);
    expect(session?.wastedCalls).toBe(0);
    expect(session?.savedCalls).toBe(0);
  });
});

describe("loop kinds", () => {
  test("a denied Write then a Bash heredoc to the same file; identical denied calls; a subagent's denial joins its session", async () => {
    const files = findTranscripts(
      [join(fixtures, "shapes/loop-kinds.session.jsonl"), join(fixtures, "shapes/loop-kinds")],
      scratch,
    );
    expect(files).toHaveLength(2);
    const result = await run(files);
    expect(result.sessions).toHaveLength(1);
    const session = result.sessions[0]?.analysis;
    expect(session?.toolCalls).toBe(8);
    expect(session?.denialCount).toBe(7);
    expect(session?.deniedBySource).toEqual({ rule: 1, headless: 6 });
    expect(session?.loops).toEqual(
      expect.arrayContaining([
        { kind: "intent-switch", by: "host", tool: "Bash", canonicalTool: "shell", calls: 1, after: "Write" },
        { kind: "identical-call", by: "host", tool: "WebFetch", canonicalTool: "web_fetch", calls: 5 },
        { kind: "retry-after-denial", by: "host", tool: "WebFetch", canonicalTool: "web_fetch", calls: 4 },
      ]),
    );
    expect(session?.denials.map((denial) => denial.tool)).toContain("Write");
    // the subagent's auto-denied Write (prompts unavailable) is a headless denial in the same session
    expect(session?.denials.filter((denial) => denial.tool === "Write")).toHaveLength(2);
    const fetch = session?.suggestedRules.find((rule) => rule.tool === "WebFetch");
    expect(fetch).toMatchObject({ rule: "WebFetch(domain:example.com)", count: 5, denyRuleWins: false });
  });
});

describe("the order of sessions", () => {
  test("sessions that start at once are in byte order of their ids, the same in every locale", async () => {
    const template = readFileSync(join(fixtures, "shapes/legitimate-repetition.session.jsonl"), "utf8");
    const files = ["session-a-1", "SESSION-B-1"].map((id) => {
      const file = join(scratch, `${id}.jsonl`);
      writeFileSync(file, template.replaceAll("5b0e6c1e-1111-4c3a-9d7e-000000000001", id));
      return file;
    });
    const result = await run(files);
    // a collator would put "session-a-1" first (letters before case); byte order puts "S" (0x53) before "s" (0x73)
    expect(result.sessions.map((session) => session.analysis.sessionId)).toEqual(["SESSION-B-1", "session-a-1"]);
  });
});

describe("corrupt, truncated and unknown lines", () => {
  test("are skipped and counted, never fatal, and change nothing else", async () => {
    const original = readFileSync(join(fixtures, "claude-code/stubborn.session.jsonl"), "utf8");
    const lines = original.trimEnd().split("\n");
    const damaged = [
      lines[0],
      "not json at all",
      ...lines.slice(1, 4),
      '{"type":"user","message":{"content":[{"type":"tool_res',
      ...lines.slice(4),
      "{}",
    ];
    const file = join(scratch, "damaged.jsonl");
    writeFileSync(file, `${damaged.join("\n")}\n`);
    const result = await run([file]);
    expect(result.skippedLines).toBe(3);
    expect(result.sessions[0]?.analysis.denialCount).toBe(3);
  });
});

describe("--host", () => {
  test("forces the format when the first lines do not say (a stream-json log cut before its init line)", async () => {
    const lines = readFileSync(join(fixtures, "qwen/stubborn.stream.jsonl"), "utf8").trimEnd().split("\n").slice(1);
    const file = join(scratch, "cut.jsonl");
    writeFileSync(file, `${lines.join("\n")}\n`);
    const sniffed = await run([file]);
    expect(sniffed.sessions[0]?.analysis.host).toBe("claude-code");
    const forced = await run([file], "qwen");
    expect(forced.sessions[0]?.analysis).toMatchObject({ host: "qwen", format: "qwen-stream-json", denialCount: 3 });
  });
});

describe("interactive sessions", () => {
  test("a person could answer: toolgate would offer a session grant, not stop the run", async () => {
    const text = readFileSync(join(fixtures, "shapes/loop-kinds.session.jsonl"), "utf8").replaceAll(
      '"entrypoint":"sdk-cli"',
      '"entrypoint":"cli"',
    );
    const file = join(scratch, "interactive.jsonl");
    writeFileSync(file, text);
    const session = (await run([file])).sessions[0]?.analysis;
    expect(session?.interactive).toBe(true);
    // Claude's "user-rejected" in a session a person watches is a person's No
    expect(session?.deniedBySource).toEqual({ rule: 1, user: 5 });
    expect(session?.stoppedAt).toMatchObject({ tool: "WebFetch", action: "offer-grant", call: 5 });
    expect(session?.savedCalls).toBe(0);
  });
});

describe("sessions that do not say whether a person watched", () => {
  test("a Claude Code 2.0 transcript (no entrypoint): a person's No stays a person's, not a headless denial", async () => {
    const text = readFileSync(join(fixtures, "shapes/loop-kinds.session.jsonl"), "utf8").replaceAll(
      '"entrypoint":"sdk-cli",',
      "",
    );
    expect(text).not.toContain("entrypoint");
    const file = join(scratch, "claude-2.0.jsonl");
    writeFileSync(file, text);
    const session = (await run([file])).sessions[0]?.analysis;
    expect(session?.deniedBySource).toEqual({ rule: 1, user: 5 });
  });

  test("the same transcript from an SDK or -p run (entrypoint sdk-cli) still reads the rejections as headless", async () => {
    const session = (await run([join(fixtures, "shapes/loop-kinds.session.jsonl")])).sessions[0]?.analysis;
    expect(session?.deniedBySource).toEqual({ rule: 1, headless: 5 });
  });
});

describe("a retry after a denial is the same call or a variant, not another call of the pattern", () => {
  const capture = join(fixtures, "public/codex/patch-rejected.rollout.jsonl");

  test("two different apply_patch heredocs a person rejected (two files, Codex 0.40): no loop", async () => {
    const session = (await run([capture])).sessions[0]?.analysis;
    expect(session?.deniedBySource).toEqual({ user: 2 });
    expect(session?.loops).toEqual([]);
  });

  test("the same rejected apply_patch twice: a retry-after-denial loop", async () => {
    const lines = readFileSync(capture, "utf8").trimEnd().split("\n").slice(0, 62);
    const [call, output] = lines
      .slice(60)
      .map((line) => line.replaceAll("call_Gvr8d6Nsq8Rqh8n8dGwnFFGh", "call_again"));
    expect(output).toContain("patch rejected by user");
    const file = join(scratch, "same-patch-twice.rollout.jsonl");
    writeFileSync(file, `${[...lines, call, output].join("\n")}\n`);
    const session = (await run([file])).sessions[0]?.analysis;
    expect(session?.denialCount).toBe(2);
    expect(session?.loops).toEqual([
      expect.objectContaining({ kind: "retry-after-denial", tool: "shell", canonicalTool: "shell", calls: 1 }),
    ]);
  });
});

describe("filters", () => {
  test("--since leaves out files and sessions older than it; --session keeps ids with the prefix", async () => {
    const files = [join(fixtures, "qwen/stubborn.chat.jsonl"), join(fixtures, "gemini/stubborn.session.jsonl")];
    const later = await analyzeTranscripts({
      files,
      config: setup.config,
      canGrant: setup.canGrant,
      since: Date.parse("2099-01-01"),
    });
    expect(later.sessions).toEqual([]);
    const one = await analyzeTranscripts({
      files,
      config: setup.config,
      canGrant: setup.canGrant,
      sessionId: "74f8b87c",
    });
    expect(one.sessions.map((session) => session.analysis.host)).toEqual(["qwen"]);
  });
});
