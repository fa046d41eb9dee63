import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import type { SessionAnalysis } from "../../src/analyze/analysis-types.js";
import { analyzeTranscripts } from "../../src/analyze/analyze-transcripts.js";
import { findTranscripts } from "../../src/analyze/find-transcripts.js";
import { loadAnalysisSetup } from "../../src/analyze/load-analysis-setup.js";
import { temporaryDirectory } from "../support/temporary-directory.js";

/**
 * `toolgate analyze` on real captures other people published (test/fixtures/transcripts/public/, see its README
 * for where each comes from): each test states what a person reading the capture counts (sessions, calls,
 * refusals) and checks that analyze counts the same.
 */
const publicCaptures = resolve("test/fixtures/transcripts/public");
const empty = temporaryDirectory("toolgate-public-captures-");
const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });

async function analyze(file: string): Promise<SessionAnalysis> {
  const result = await analyzeTranscripts({
    files: [join(publicCaptures, file)],
    config: setup.config,
    canGrant: setup.canGrant,
  });
  expect(result.unrecognizedFiles).toEqual([]);
  expect(result.skippedFiles).toEqual([]);
  expect(result.skippedLines).toBe(0);
  expect(result.sessions).toHaveLength(1);
  return (result.sessions[0] as { analysis: SessionAnalysis }).analysis;
}

describe("Claude Code", () => {
  test("a 2.0.26 session transcript: 10 calls, the one plan the person rejected is the one denial", async () => {
    const session = await analyze("claude-code/plan-rejected.session.jsonl");
    expect(session.format).toBe("claude-code-session");
    expect(session.sessionId).toBe("8a2518dd-ff41-4d5f-83a1-407b03598cc6");
    // Read x3, AskUserQuestion, ExitPlanMode (rejected), ExitPlanMode (approved), TodoWrite x2, Edit x2
    expect(session.toolCalls).toBe(10);
    expect(session.denialCount).toBe(1);
    expect(session.denials[0]?.tool).toBe("ExitPlanMode");
    expect(session.denials[0]?.reason).toMatch(/^The user doesn't want to proceed with this tool use\./);
    // 2.0.x writes no `entrypoint`: nothing says the run was headless, so the rejection is the person's
    expect(session.deniedBySource).toEqual({ user: 1 });
  });

  test("a 2.0.27 session transcript: 27 calls, a test run that failed is no denial", async () => {
    const session = await analyze("claude-code/test-failure.session.jsonl");
    expect(session.format).toBe("claude-code-session");
    expect(session.sessionId).toBe("2d984148-cddb-4605-aac1-13e720fe613c");
    expect(session.toolCalls).toBe(27);
    expect(session.denialCount).toBe(0);
    expect(session.loops).toEqual([]);
  });

  test("`claude -p --output-format json`: the result line alone is a session, its permission_denials the denials", async () => {
    const session = await analyze("claude-code/edit-denied.json-output.json");
    expect(session.format).toBe("claude-code-stream-json");
    expect(session.sessionId).toBe("f18f49de-5b8f-4261-99c4-dbbaa6ae0e24");
    // the output names only the refused call (the run took 8 turns): that call is all there is to count
    expect(session.toolCalls).toBe(1);
    expect(session.denialCount).toBe(1);
    expect(session.denials[0]).toMatchObject({ tool: "Edit", canonicalTool: "edit" });
    expect(session.denials[0]?.summary).toContain("test-file.txt");
  });

  test("2.1.277 stream-json lines in auto mode: 8 calls needed approval, 1 with its result, 7 named only by the result", async () => {
    const session = await analyze("claude-code/auto-mode-approvals.stream.jsonl");
    expect(session.format).toBe("claude-code-stream-json");
    expect(session.sessionId).toBe("96b5ccc6-613b-444c-a111-d64895c81768");
    expect(session.toolCalls).toBe(8);
    expect(session.denialCount).toBe(8);
    expect(session.denials.map((denial) => denial.tool).sort()).toEqual([...Array(7).fill("Bash"), "WebFetch"]);
    // the one whose result the excerpt holds: "This command requires approval", nobody to approve it in `-p`
    expect(session.denials[0]).toMatchObject({
      tool: "Bash",
      source: "headless",
      summary: "gh-axi issue view 25 --comments",
    });
  });
});

describe("Codex", () => {
  test("a 0.40 rollout (VS Code, approval on-request): the two patches the person rejected, nothing else", async () => {
    const session = await analyze("codex/patch-rejected.rollout.jsonl");
    expect(session.format).toBe("codex-rollout");
    expect(session.sessionId).toBe("01997e76-d124-7592-9cac-2ec05abbca08");
    expect(session.toolCalls).toBe(123);
    // `patch rejected by user` twice; the `rg` that found nothing (exit 1) and the `sed` with an unquoted `(` (exit 2)
    // that Codex 0.40 wrapped in `failed in sandbox ... sandbox denied exec error` are ordinary failures
    expect(session.denialCount).toBe(2);
    expect(session.deniedBySource).toEqual({ user: 2 });
    expect(session.denials.map((denial) => denial.reason)).toEqual([
      "patch rejected by user",
      "patch rejected by user",
    ]);
  });

  test("a 0.40 rollout whose login profile prints a refusal before every command: no command was refused", async () => {
    const session = await analyze("codex/homebrew-profile.rollout.jsonl");
    expect(session.format).toBe("codex-rollout");
    expect(session.toolCalls).toBe(57);
    // twelve commands failed (`rg` without a match, a glob zsh could not expand, `sed` on a missing file), each
    // wrapped in `sandbox denied exec error` and each after Homebrew's `/bin/ps: Operation not permitted` line,
    // which the 45 commands that succeeded printed too
    expect(session.denialCount).toBe(0);
    expect(session.loops).toEqual([]);
  });

  test("`codex exec --json` 0.46 with the same profile line on a command that succeeded: one call, no denial", async () => {
    const session = await analyze("codex/homebrew-profile.exec.jsonl");
    expect(session.format).toBe("codex-exec-json");
    expect(session.toolCalls).toBe(1);
    expect(session.denialCount).toBe(0);
  });
});

describe("opencode", () => {
  test("`opencode run --format json`: one bash call that ran, no denial", async () => {
    const session = await analyze("opencode/go-version.run.jsonl");
    expect(session.format).toBe("opencode-run-json");
    expect(session.sessionId).toBe("ses_17991b726ffezSLOoMYnmU961P");
    expect(session.toolCalls).toBe(1);
    expect(session.denialCount).toBe(0);
  });
});

describe("Gemini CLI", () => {
  test("a stream-json excerpt cut before its init line: 3 calls, a tool that does not exist is no denial", async () => {
    const session = await analyze("gemini/tool-not-found.stream.jsonl");
    expect(session.format).toBe("gemini-stream-json");
    expect(session.toolCalls).toBe(3);
    expect(session.denialCount).toBe(0);
  });
});

describe("Gemini CLI, a log captured through an 80-column terminal", () => {
  test("`-o json` after its stderr, every long line cut at 80 columns: 9 calls, the 3 writes plan mode refused", async () => {
    const session = await analyze("gemini/plan-mode-80-columns.output.log");
    expect(session.format).toBe("gemini-json-output");
    // read from the JSON document, whose strings the terminal cut (a cut even falls inside a `\"` escape)
    expect(session.sessionId).toBe("649564a2-eb03-44ea-a3be-7085f593ebe2");
    // stats.tools: read_file 4, update_topic 2, write_file 3 (all 3 failed)
    expect(session.toolCalls).toBe(9);
    expect(session.denialCount).toBe(3);
    expect(session.denials.map((denial) => denial.tool)).toEqual(["write_file", "write_file", "write_file"]);
    // the stderr line and its two cut-off pieces are one refusal text again
    expect(session.denials[0]?.reason).toBe(
      "You are in Plan Mode and cannot modify source code. You may ONLY use write_file or replace to save plans to the designated plans directory as .md files.",
    );
  });
});

test("the whole folder: every capture read, one session each, nothing unrecognized or skipped", async () => {
  const files = findTranscripts([publicCaptures], empty).filter(
    (file) => !file.endsWith(".md") && !file.endsWith(".mjs"),
  );
  const result = await analyzeTranscripts({ files, config: setup.config, canGrant: setup.canGrant });
  expect(result.unrecognizedFiles).toEqual([]);
  expect(result.skippedFiles).toEqual([]);
  expect(result.filesRead).toBe(10);
  expect(result.sessions).toHaveLength(10);
  expect(result.sessions.reduce((sum, session) => sum + session.analysis.denialCount, 0)).toBe(1 + 1 + 8 + 2 + 3);
});
