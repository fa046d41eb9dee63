import { copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { analysisDocument } from "./analysis-document.js";
import type { SessionAnalysis } from "./analysis-types.js";
import { analyzeTranscripts } from "./analyze-transcripts.js";
import { findTranscripts } from "./find-transcripts.js";
import { formatAnalysis } from "./format-analysis.js";
import { detectFormat } from "./formats.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";

/**
 * The always-run check of `toolgate analyze` on transcripts recorded from the five real binaries
 * (test/fixtures/transcripts/<host>/, see its README): a scripted model that runs a denied `rm -rf` three times
 * (twice identical, once varied) and a legitimate session (a listing, the same test script twice, a read).
 */
const fixtures = resolve("test/fixtures/transcripts");
const empty = mkdtempSync(join(tmpdir(), "toolgate-analyze-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });

async function analyze(file: string): Promise<SessionAnalysis> {
  const result = await analyzeTranscripts({
    files: [join(fixtures, file)],
    config: setup.config,
    canGrant: setup.canGrant,
  });
  expect(result.skippedLines).toBe(0);
  expect(result.sessions).toHaveLength(1);
  return (result.sessions[0] as { analysis: SessionAnalysis }).analysis;
}

const RECORDED: [file: string, format: string, shell: string][] = [
  ["claude-code/%s.session.jsonl", "claude-code-session", "Bash"],
  ["claude-code/%s.stream.jsonl", "claude-code-stream-json", "Bash"],
  ["codex/%s.rollout.jsonl", "codex-rollout", "exec_command"],
  ["gemini/%s.session.jsonl", "gemini-session", "run_shell_command"],
  ["gemini/%s.stream.jsonl", "gemini-stream-json", "run_shell_command"],
  ["gemini/%s.output.log", "gemini-json-output", "run_shell_command"],
  ["qwen/%s.chat.jsonl", "qwen-chat", "run_shell_command"],
  ["qwen/%s.stream.jsonl", "qwen-stream-json", "run_shell_command"],
  ["opencode/%s.db", "opencode-db", "bash"],
  ["opencode/%s.run.jsonl", "opencode-run-json", "bash"],
  ["opencode/%s.run.log", "opencode-run-text", "bash"],
];

describe("one tool across hosts", () => {
  test("the stubborn sessions of five hosts deny one canonical tool, shell, named each host's way", async () => {
    const sessions = await Promise.all(RECORDED.map(([pattern]) => analyze(pattern.replace("%s", "stubborn"))));
    for (const session of sessions) {
      expect(session.denials.map((denial) => [denial.canonicalTool, denial.toolFamily])).toEqual([
        ["shell", "shell"],
        ["shell", "shell"],
        ["shell", "shell"],
      ]);
    }
    const document = analysisDocument({
      sessions,
      filesRead: sessions.length,
      skippedLines: 0,
      searched: [],
      unrecognizedFiles: [],
    });
    expect(document.totals.deniedByTool).toEqual([
      { tool: "shell", count: 3 * RECORDED.length, hostTools: ["Bash", "bash", "exec_command", "run_shell_command"] },
    ]);
    expect(formatAnalysis(document)).toContain(
      `Denied tools: shell (Bash, bash, exec_command, run_shell_command) ${3 * RECORDED.length}.`,
    );
  });
});

describe("stubborn session: exactly the denials and retries the script made", () => {
  test.each(RECORDED)("%s", async (pattern, format, shell) => {
    const session = await analyze(pattern.replace("%s", "stubborn"));
    expect(session.format).toBe(format);
    expect(session.toolCalls).toBe(3);
    expect(session.denialCount).toBe(3);
    expect(session.deniedBySource).toEqual({ rule: 3 });
    expect(session.denials.map((denial) => denial.tool)).toEqual([shell, shell, shell]);
    expect(session.loops).toEqual([
      { kind: "retry-after-denial", by: "host", tool: shell, canonicalTool: "shell", calls: 2 },
    ]);
    expect(session.wastedCalls).toBe(2);
    // shell threshold 2, headless abort: toolgate stops at the 2nd denial, so the 3rd call is saved
    expect(session.stoppedAt).toMatchObject({ call: 2, tool: shell, action: "abort" });
    expect(session.savedCalls).toBe(1);
    if (format !== "gemini-json-output") {
      // every call was refused by a deny rule, which would still win over any allow rule: no rule is suggested
      // (issue 26 item 4; the -o json output holds no inputs, so it never suggests one)
      expect(session.suggestedRules).toEqual([]);
    }
  });

  test("token usage is attributed to the wasted calls where the transcript has it", async () => {
    expect((await analyze("claude-code/stubborn.session.jsonl")).wastedTokens).toBe(240);
    expect((await analyze("gemini/stubborn.stream.jsonl")).wastedTokens).toBeNull();
  });

  test("codex exec --json writes nothing for a denied call: no calls, no denials (the rollout has them)", async () => {
    const session = await analyze("codex/stubborn.exec.jsonl");
    expect(session.toolCalls).toBe(0);
    expect(session.denialCount).toBe(0);
  });
});

describe("legitimate session: nothing reported", () => {
  test.each([...RECORDED, ["codex/%s.exec.jsonl", "codex-exec-json", "exec_command"] as [string, string, string]])(
    "%s",
    async (pattern, format) => {
      const session = await analyze(pattern.replace("%s", "legitimate"));
      expect(session.format).toBe(format);
      expect(session.toolCalls).toBe(4);
      expect(session.denialCount).toBe(0);
      expect(session.loops).toEqual([]);
      expect(session.wastedCalls).toBe(0);
      expect(session.savedCalls).toBe(0);
      expect(session.stoppedAt).toBeNull();
      expect(session.suggestedRules).toEqual([]);
    },
  );
});

describe("Claude Code subagent (recorded): the subagent file joins its parent session", () => {
  test("the subagent's two denied calls, with its agent id, in the main session", async () => {
    const result = await analyzeTranscripts({
      files: findTranscripts([join(fixtures, "claude-code/subagent")], empty),
      config: setup.config,
      canGrant: setup.canGrant,
    });
    expect(result.sessions).toHaveLength(1);
    const session = result.sessions[0]?.analysis;
    // the main agent's Agent call and the subagent's two Bash calls
    expect(session?.toolCalls).toBe(3);
    expect(session?.denialCount).toBe(2);
    expect(session?.denials.every((denial) => denial.tool === "Bash" && denial.agentId !== undefined)).toBe(true);
    expect(session?.loops).toEqual([
      { kind: "retry-after-denial", by: "host", tool: "Bash", canonicalTool: "shell", calls: 1 },
    ]);
  });
});

describe("ask rule, nobody to answer (headless): the denials are the host's asks", () => {
  const ASK: [file: string, denials: number, source: string][] = [
    ["claude-code/ask.session.jsonl", 3, "headless"],
    ["claude-code/ask.stream.jsonl", 3, "headless"],
    ["codex/ask.rollout.jsonl", 3, "headless"],
    ["gemini/ask.session.jsonl", 3, "headless"],
    ["gemini/ask.stream.jsonl", 3, "headless"],
    ["gemini/ask.output.log", 3, "headless"],
    // Qwen Code 0.24 in default mode denies a file-changing shell command with its built-in `edit` rule
    ["qwen/ask.chat.jsonl", 3, "rule"],
    ["qwen/ask.stream.jsonl", 3, "rule"],
    // `opencode run` auto-rejects the ask and ends the session: one call
    ["opencode/ask.db", 1, "headless"],
    ["opencode/ask.run.jsonl", 1, "headless"],
    ["opencode/ask.run.log", 1, "headless"],
  ];
  test.each(ASK)("%s", async (file, denials, source) => {
    const session = await analyze(file);
    expect(session.denialCount).toBe(denials);
    expect(session.deniedBySource).toEqual({ [source]: denials });
    expect(session.savedCalls).toBe(denials === 3 ? 1 : 0);
  });
});

describe("an OS refusal (EACCES) counts as a sandbox denial", () => {
  const EACCES: [file: string, denials: number][] = [
    ["claude-code/eacces.session.jsonl", 1],
    ["claude-code/eacces.stream.jsonl", 1],
    ["codex/eacces.rollout.jsonl", 1],
    // Codex 0.171.0's `codex exec --json` writes the failed command (exit 126) as an item
    ["codex/eacces.exec.jsonl", 1],
    ["gemini/eacces.session.jsonl", 1],
    ["qwen/eacces.chat.jsonl", 1],
    ["qwen/eacces.stream.jsonl", 1],
    ["opencode/eacces.db", 1],
    ["opencode/eacces.run.jsonl", 1],
    // known gaps, pinned: these outputs carry no exit code (Gemini even says `success`), and Codex 0.169.0's
    // `codex exec --json` wrote no item for a command that could not start (kept: recorded on that version)
    ["gemini/eacces.stream.jsonl", 0],
    ["gemini/eacces.output.log", 0],
    ["opencode/eacces.run.log", 0],
    ["codex/eacces-codex-0-169-0.exec.jsonl", 0],
  ];
  test.each(EACCES)("%s", async (file, denials) => {
    const session = await analyze(file);
    expect(session.denialCount).toBe(denials);
    if (denials > 0) expect(session.deniedBySource).toEqual({ sandbox: 1 });
    expect(session.loops).toEqual([]);
  });
});

describe("Claude Code 2.1.332 `-p --output-format stream-json --include-partial-messages` (recorded, issue 26 item 7)", () => {
  // `stream_event` lines between the messages, `system/permission_denied` lines, `permission_denials` on the
  // `success` result, and five SessionStart hooks' `hook_started` / `hook_response` lines before the `init` line
  const file = "claude-code/stubborn.partial.stream.jsonl";

  test("read as the session it is, with its three rule denials and the retry", async () => {
    expect((await detectFormat(join(fixtures, file)))?.id).toBe("claude-code-stream-json");
    const session = await analyze(file);
    expect(session.format).toBe("claude-code-stream-json");
    expect(session.toolCalls).toBe(3);
    expect(session.deniedBySource).toEqual({ rule: 3 });
    expect(session.loops).toEqual([
      { kind: "retry-after-denial", by: "host", tool: "Bash", canonicalTool: "shell", calls: 2 },
    ]);
    expect(session.wastedCalls).toBe(2);
    expect(session.savedCalls).toBe(1);
  });

  test("the session's times are its lines' times, not the time the log was copied", async () => {
    const copy = join(empty, "copied.partial.stream.jsonl");
    copyFileSync(join(fixtures, file), copy);
    utimesSync(copy, new Date("2030-01-01T00:00:00Z"), new Date("2030-01-01T00:00:00Z"));
    const result = await analyzeTranscripts({ files: [copy], config: setup.config, canGrant: setup.canGrant });
    const session = result.sessions[0]?.analysis;
    expect(session?.startedAt).toBe("2026-11-27T15:50:30.147Z");
    expect(session?.endedAt).toBe("2026-11-27T15:50:30.377Z");
  });
});

describe("Gemini CLI 0.61 `-o json` log whose first refusal is a plan path outside the plans directory", () => {
  test("both refusals count: the plan path (validation) and the policy deny (rule)", async () => {
    // the recorded -o json shape (stderr lines, then the JSON document); the first text is gemini-cli 0.61's
    // PlanErrorMessages.PATH_ACCESS_DENIED, word for word
    const log = join(empty, "plan-path.output.log");
    const document = {
      session_id: "5d1c2b7e-0c4e-4a53-9a0e-6f1f3f7c2a10",
      response: "I could not write the plan.",
      stats: {
        tools: {
          totalCalls: 2,
          totalSuccess: 0,
          totalFail: 2,
          byName: {
            write_file: { count: 1, success: 0, fail: 1 },
            run_shell_command: { count: 1, success: 0, fail: 1 },
          },
        },
      },
    };
    writeFileSync(
      log,
      [
        "Error executing tool write_file: Access denied: plan path (../notes/plan.md) must be within the designated plans directory (/home/me/.gemini/tmp/3f2a/plans).",
        "Error executing tool run_shell_command: Tool execution denied by policy.",
        JSON.stringify(document, null, 2),
        "",
      ].join("\n"),
    );
    const result = await analyzeTranscripts({ files: [log], config: setup.config, canGrant: setup.canGrant });
    const session = result.sessions[0]?.analysis;
    expect(session?.format).toBe("gemini-json-output");
    expect(session?.toolCalls).toBe(2);
    expect(session?.denials.map((denial) => [denial.tool, denial.source])).toEqual([
      ["write_file", "validation"],
      ["run_shell_command", "rule"],
    ]);
  });
});

describe("Kilo CLI 7.7.7 (recorded): its own session database and `kilo run --format json`", () => {
  // Kilo kept opencode's storage (`~/.local/share/kilo/kilo.db`), so it reads as opencode's, under Kilo's name
  test("stubborn: the three rule denials and the retry, as Kilo's", async () => {
    const session = await analyze("kilo/stubborn.db");
    expect([session.host, session.format]).toEqual(["kilo", "kilo-db"]);
    expect(session.toolCalls).toBe(3);
    expect(session.deniedBySource).toEqual({ rule: 3 });
    expect(session.loops).toEqual([
      { kind: "retry-after-denial", by: "host", tool: "bash", canonicalTool: "shell", calls: 2 },
    ]);
    expect(session.wastedCalls).toBe(2);
    expect(session.wastedTokens).toBe(240);
    expect(session.stoppedAt).toMatchObject({ call: 2, tool: "bash", action: "abort" });
    expect(session.savedCalls).toBe(1);
  });

  test("legitimate: four calls, nothing reported", async () => {
    const session = await analyze("kilo/legitimate.db");
    expect(session.toolCalls).toBe(4);
    expect(session.denialCount).toBe(0);
    expect(session.loops).toEqual([]);
  });

  test("ask, nobody to answer: `kilo run` rejects the ask and ends the session (one headless denial)", async () => {
    const session = await analyze("kilo/ask.db");
    expect(session.toolCalls).toBe(1);
    expect(session.deniedBySource).toEqual({ headless: 1 });
  });

  test("eacces: the OS refusal is one sandbox denial", async () => {
    const session = await analyze("kilo/eacces.db");
    expect(session.toolCalls).toBe(2);
    expect(session.deniedBySource).toEqual({ sandbox: 1 });
  });

  test("a `kilo run --format json` log under --host kilo reads as Kilo's; the same figures as its database", async () => {
    const result = await analyzeTranscripts({
      files: [join(fixtures, "kilo/stubborn.run.jsonl")],
      host: "kilo",
      config: setup.config,
      canGrant: setup.canGrant,
    });
    const session = result.sessions[0]?.analysis;
    expect([session?.host, session?.format]).toEqual(["kilo", "kilo-run-json"]);
    expect(session?.deniedBySource).toEqual({ rule: 3 });
    expect(session?.savedCalls).toBe(1);
  });

  test("its database and its run log (read as opencode's) are one session, counted once", async () => {
    const result = await analyzeTranscripts({
      files: [join(fixtures, "kilo/stubborn.db"), join(fixtures, "kilo/stubborn.run.jsonl")],
      config: setup.config,
      canGrant: setup.canGrant,
    });
    expect(result.sessions.map(({ analysis }) => [analysis.host, analysis.format, analysis.denialCount])).toEqual([
      ["kilo", "kilo-db", 3],
    ]);
    expect(result.skippedFiles.map((skipped) => skipped.file)).toEqual([join(fixtures, "kilo/stubborn.run.jsonl")]);
  });

  test("an opencode database is not taken for Kilo's", async () => {
    expect((await detectFormat(join(fixtures, "opencode/stubborn.db")))?.id).toBe("opencode-db");
    expect(await detectFormat(join(fixtures, "opencode/stubborn.db"), "kilo")).toBeUndefined();
  });
});
