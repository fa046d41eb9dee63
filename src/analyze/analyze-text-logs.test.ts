import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import type { AnalyzeHost } from "../hosts/common/reader-event.js";
import { analyzeTranscripts } from "./analyze-transcripts.js";
import { detectFormat } from "./formats.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";

/**
 * The plain text logs of each host's headless mode, recorded from the real binaries by
 * test/e2e/record-transcripts/record-text-logs.test.ts (`<scenario>.text.log`: stderr then stdout), and format
 * detection over every recorded fixture.
 */
const fixtures = resolve("test/fixtures/transcripts");
const empty = mkdtempSync(join(tmpdir(), "toolgate-analyze-text-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });

function analyze(file: string, host?: AnalyzeHost) {
  return analyzeTranscripts({
    files: [join(fixtures, file)],
    config: setup.config,
    canGrant: setup.canGrant,
    ...(host === undefined ? {} : { host }),
  });
}

describe("text logs that show the calls and their denials", () => {
  const STUBBORN: [file: string, format: string, shell: string][] = [
    ["codex/stubborn.text.log", "codex-text", "exec_command"],
    // Gemini and Qwen write a line per refused call only, without its input: opaque calls
    ["gemini/stubborn.text.log", "gemini-json-output", "run_shell_command"],
    ["qwen/stubborn.text.log", "qwen-text", "run_shell_command"],
  ];
  test.each(STUBBORN)("stubborn %s: the three denials and the retries", async (file, format, shell) => {
    const result = await analyze(file);
    expect(result.skippedLines).toBe(0);
    const session = result.sessions[0]?.analysis;
    expect(session?.format).toBe(format);
    expect(session?.toolCalls).toBe(3);
    expect(session?.deniedBySource).toEqual({ rule: 3 });
    expect(session?.loops).toEqual([
      { kind: "retry-after-denial", by: "host", tool: shell, canonicalTool: "shell", calls: 2 },
    ]);
    expect(session?.wastedCalls).toBe(2);
    expect(session?.savedCalls).toBe(1);
  });

  test("codex exec text: the session id from the banner, the commands that ran, nothing reported", async () => {
    const session = (await analyze("codex/legitimate.text.log")).sessions[0]?.analysis;
    expect(session?.sessionId).toBe("01a21cff-b62b-73d1-bf87-0ef17cd2cc1b");
    expect(session?.toolCalls).toBe(4);
    expect([session?.denialCount, session?.loops, session?.savedCalls]).toEqual([0, [], 0]);
  });

  test("codex exec text: the refused commands keep their input (no rule is suggested: a deny rule refused them)", async () => {
    const session = (await analyze("codex/stubborn.text.log")).sessions[0]?.analysis;
    expect(session?.denials.map((denial) => denial.summary)).toEqual([
      expect.stringContaining("rm -rf victim"),
      expect.stringContaining("rm -rf victim"),
      expect.stringContaining("rm -rf ./victim"),
    ]);
    // Codex's own rule refused them: an allow rule would not win over it (issue 26 item 4)
    expect(session?.deniedBySource).toEqual({ rule: 3 });
    expect(session?.suggestedRules).toEqual([]);
  });

  test.each([
    ["gemini", "gemini-json-output"],
    ["qwen", "qwen-text"],
  ] as const)(
    "%s legitimate text log: no call line at all; read with --host, it reports nothing",
    async (host, format) => {
      expect((await analyze(`${host}/legitimate.text.log`)).unrecognizedFiles).toHaveLength(1);
      const forced = await analyze(`${host}/legitimate.text.log`, host);
      expect(forced.sessions[0]?.analysis).toMatchObject({ format, toolCalls: 0, denialCount: 0, loops: [] });
    },
  );
});

describe("Claude Code's `claude -p` text output holds no tool call", () => {
  test.each(["stubborn", "legitimate"])(
    "%s: skipped with the reason under --host, unrecognized without",
    async (name) => {
      const file = `claude-code/${name}.text.log`;
      const forced = await analyze(file, "claude-code");
      expect(forced.sessions).toEqual([]);
      expect(forced.skippedFiles).toEqual([
        { file: join(fixtures, file), reason: expect.stringContaining("claude -p") },
      ]);
      const plain = await analyze(file);
      expect(plain.skippedFiles).toEqual([]);
      expect(plain.unrecognizedFiles).toEqual([join(fixtures, file)]);
    },
  );
});

/** The format each fixture must be detected as without `--host`, by host folder and file suffix. */
const EXPECTED: Record<string, string | undefined> = {
  "pi session.jsonl": "pi-session",
  "pi stream.jsonl": "pi-session",
  "copilot events.jsonl": "copilot-events",
  "copilot output.jsonl": "copilot-json",
  "claude-code session.jsonl": "claude-code-session",
  "claude-code stream.jsonl": "claude-code-stream-json",
  // `--include-partial-messages`, five SessionStart hooks' lines before its `init` line
  "claude-code partial.stream.jsonl": "claude-code-stream-json",
  "claude-code subagent": "claude-code-session",
  "claude-code text.log": undefined,
  "codex rollout.jsonl": "codex-rollout",
  "codex exec.jsonl": "codex-exec-json",
  "codex text.log": "codex-text",
  "gemini session.jsonl": "gemini-session",
  "gemini stream.jsonl": "gemini-stream-json",
  "gemini output.log": "gemini-json-output",
  "gemini text.log": "gemini-json-output",
  "qwen chat.jsonl": "qwen-chat",
  "qwen stream.jsonl": "qwen-stream-json",
  "qwen text.log": "qwen-text",
  "opencode db": "opencode-db",
  "opencode run.jsonl": "opencode-run-json",
  "kilo db": "kilo-db",
  // `kilo run --format json` writes opencode's lines word for word: read as opencode's unless `--host kilo`
  "kilo run.jsonl": "opencode-run-json",
  "opencode run.log": "opencode-run-text",
  "shapes session.jsonl": "claude-code-session",
  "shapes subagent": "claude-code-session",
};
/** legitimate Gemini and Qwen text logs have no line any format could recognise (they show no call) */
const UNRECOGNIZABLE = new Set(["gemini/legitimate.text.log", "qwen/legitimate.text.log"]);

function everyFixture(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    // public/: other people's captures, each with its own expectations (test/analyze/public-captures.test.ts)
    if (entry.isDirectory()) return entry.name === "public" ? [] : everyFixture(path);
    return /\.(jsonl|log|db)$/.test(entry.name) ? [path] : [];
  });
}

describe("format detection over every recorded fixture", () => {
  const files = everyFixture(fixtures).map((file) => relative(fixtures, file));
  test("every fixture is found", () => expect(files.length).toBeGreaterThanOrEqual(60));
  test.each(files)("%s", async (file) => {
    const [host = "", ...rest] = file.split("/");
    const name = rest.join("/");
    const key = name.includes("/") ? `${host} subagent` : `${host} ${name.replace(/^[^.]*\./, "")}`;
    expect(Object.keys(EXPECTED)).toContain(key);
    const expected = UNRECOGNIZABLE.has(file) ? undefined : EXPECTED[key];
    expect((await detectFormat(join(fixtures, file)))?.id).toBe(expected);
  });
});
