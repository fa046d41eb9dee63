/**
 * Baseline, without toolgate: documents the problem toolgate solves. A stubborn scripted model retries a rule-denied
 * `rm -rf` 25 times; the real Claude Code binary denies every one, never escalates, and still exits 0 with
 * `subtype: "success"`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeAnthropic, startFakeAnthropic } from "./fake-anthropic.js";
import { type ClaudeRunResult, createWorkspace, runClaude, type Workspace } from "./run-claude.js";
import { stubbornRemover } from "./scripts.js";

const ATTEMPTS = 25;

describe("Claude Code without toolgate (baseline)", () => {
  let fake: FakeAnthropic;
  let workspace: Workspace;
  let run: ClaudeRunResult;

  beforeAll(async () => {
    workspace = createWorkspace();
    workspace.writeProjectSettings({ permissions: { deny: ["Bash(rm:*)"] } });
    fake = await startFakeAnthropic({
      conversations: { main: stubbornRemover({ attempts: ATTEMPTS, directory: workspace.project }) },
    });
    run = await runClaude({ workspace, baseUrl: fake.url, prompt: "Clean the build directories.", maxTurns: 60 });
  });

  afterAll(async () => {
    await fake?.close();
    workspace?.remove();
  });

  it("denies all 25 attempts and still exits 0 with a success result", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode).toBe(0);
    expect(run.result?.subtype).toBe("success");
    expect(run.result?.is_error).toBe(false);
    const denials = run.result?.permission_denials as { tool_name: string }[];
    expect(denials).toHaveLength(ATTEMPTS);
    expect(denials.every((denial) => denial.tool_name === "Bash")).toBe(true);
  });

  it("gives the model the same canned text every time, with no escalation", () => {
    const results = fake.toolResults();
    expect(results).toHaveLength(ATTEMPTS);
    for (const result of results) {
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/^Permission to use Bash with command rm -rf .* has been denied\.$/);
    }
    expect(fake.servedToolUses()).toHaveLength(ATTEMPTS);
  });
});
