import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { SessionAnalysis } from "../../analyze/analysis-types.js";
import { analyzeTranscripts } from "../../analyze/analyze-transcripts.js";
import { loadAnalysisSetup } from "../../analyze/load-analysis-setup.js";
import { copilotDenials } from "./copilot-events.js";
import { type CopilotHookEventName, parseCopilotHookInput } from "./copilot-hook-input.js";
import { createCopilotStreamParser } from "./copilot-stream.js";

/**
 * Payloads and session files recorded from the real Copilot CLI 1.0.102, offline (test/fixtures/copilot/,
 * test/fixtures/transcripts/copilot/: a model retrying `rm -rf victim` against `--deny-tool=shell(rm)` twice).
 */
const fixture = (name: string) => readFileSync(resolve("test/fixtures/copilot", name), "utf8");
const transcript = (name: string) => resolve("test/fixtures/transcripts/copilot", name);
const RULE = "Permission to run this tool was denied due to the following rules: `shell(rm)`";

describe("recorded Copilot CLI 1.0.102 payloads and session files", () => {
  it.each<[string, CopilotHookEventName]>([
    ["pre-tool-use.json", "preToolUse"],
    ["permission-request.json", "permissionRequest"],
    ["post-tool-use.json", "postToolUse"],
    ["post-tool-use-failure.json", "postToolUseFailure"],
    ["user-prompt-submitted.json", "userPromptSubmitted"],
    ["session-start.json", "sessionStart"],
    ["agent-stop.json", "agentStop"],
    ["session-end.json", "sessionEnd"],
  ])("%s parses as %s", (name, event) => {
    const input = parseCopilotHookInput(fixture(name), { eventName: event });
    expect(input.event).toBe(event);
    expect(input.sessionId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("permissionRequest names itself and its tool input", () => {
    expect(parseCopilotHookInput(fixture("permission-request.json"))).toMatchObject({
      event: "permissionRequest",
      toolName: "bash",
      toolArgs: { command: "rm -rf victim" },
    });
  });

  it("the events file and the JSON stream show both refusals, with Copilot's rule", () => {
    const events = readFileSync(transcript("stubborn.events.jsonl"), "utf8");
    expect(copilotDenials(events).map((denial) => [denial.tool, denial.source, denial.rule, denial.text])).toEqual([
      ["bash", "rule", "shell(rm)", RULE],
      ["bash", "rule", "shell(rm)", RULE],
    ]);
    const parser = createCopilotStreamParser();
    for (const line of readFileSync(transcript("stubborn.output.jsonl"), "utf8").split("\n")) parser.push(line);
    const summary = parser.summary();
    expect(summary.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(summary.denials.map((denial) => denial.reason)).toEqual([RULE, RULE]);
  });

  it("a person's No to toolgate's ask (interactive, recorded in tmux) is a user denial the hooks record at reconcile", () => {
    const events = readFileSync(transcript("interactive-ask-no.events.jsonl"), "utf8");
    // the text carries toolgate's mark, but toolgate did not refuse the call: the person did
    expect(copilotDenials(events).map((denial) => [denial.toolUseId, denial.tool, denial.source])).toEqual([
      ["call_1_0", "bash", "user"],
    ]);
    // and whatever the text, Copilot's record of the person's answer says whose refusal it was
    const reworded = events.replaceAll("Denied by user via preToolUse hook prompt: [toolgate]", "Refused:");
    expect(copilotDenials(reworded).map((denial) => denial.source)).toEqual(["user"]);
  });

  const empty = mkdtempSync(join(tmpdir(), "toolgate-copilot-analyze-"));
  afterAll(() => rmSync(empty, { recursive: true, force: true }));

  it.each([["stubborn.events.jsonl"], ["stubborn.output.jsonl"]])(
    "toolgate analyze reads %s as Copilot's: two shell denials by rule",
    async (name) => {
      const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });
      const result = await analyzeTranscripts({
        files: [transcript(name)],
        config: setup.config,
        canGrant: setup.canGrant,
      });
      expect(result.skippedLines).toBe(0);
      expect(result.sessions).toHaveLength(1);
      const analysis = (result.sessions[0] as { analysis: SessionAnalysis }).analysis;
      expect(analysis.denials.map((denial) => [denial.canonicalTool, denial.source])).toEqual([
        ["shell", "rule"],
        ["shell", "rule"],
      ]);
    },
  );
});
