import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, expect, test } from "vitest";
import type { SessionAnalysis } from "./analysis-types.js";
import { analyzeTranscripts } from "./analyze-transcripts.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";

/**
 * `toolgate analyze` on pi 1.6.0's files, recorded offline from the real binary (test/fixtures/transcripts/pi/):
 * toolgate's extension installed with `Bash(rm *)` denied and the threshold at 5, a scripted model running
 * `rm -rf victim` twice and `rm -rf ./victim` once. pi has no rules of its own: the refusals are toolgate's, and
 * both the session file and the `--mode json` stream read as three rule denials of one canonical tool.
 */
const fixtures = resolve("test/fixtures/transcripts/pi");
const empty = mkdtempSync(join(tmpdir(), "toolgate-analyze-pi-"));
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

test.each([["stubborn.session.jsonl"], ["stubborn.stream.jsonl"]])(
  "pi %s: three rule denials of shell",
  async (file) => {
    const session = await analyze(file);
    expect(session.format).toBe("pi-session");
    expect(session.toolCalls).toBe(3);
    expect(session.denialCount).toBe(3);
    expect(session.deniedBySource).toEqual({ rule: 3 });
    expect(session.denials.map((denial) => [denial.tool, denial.canonicalTool, denial.toolFamily])).toEqual([
      ["bash", "shell", "shell"],
      ["bash", "shell", "shell"],
      ["bash", "shell", "shell"],
    ]);
  },
);
