import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { type AnalyzeTranscriptsOptions, analyzeTranscripts } from "./analyze-transcripts.js";
import { findTranscripts } from "./find-transcripts.js";
import { loadAnalysisSetup } from "./load-analysis-setup.js";

/**
 * The replay's fast path (ports cached for the run, inputs interned, no record buffer in the core's state) against
 * the reference path (the config as given): the same result, records included, on every recorded transcript.
 */
const fixtures = resolve("test/fixtures/transcripts");
const empty = mkdtempSync(join(tmpdir(), "toolgate-analyze-fast-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));
const setup = await loadAnalysisSetup({ cwd: empty, homeDir: empty, env: {} });

async function both(options: Omit<AnalyzeTranscriptsOptions, "config" | "canGrant">): Promise<[string, string]> {
  const common = { ...options, config: setup.config, canGrant: setup.canGrant, keepRecords: true };
  const fast = await analyzeTranscripts(common);
  const reference = await analyzeTranscripts({ ...common, reference: true });
  return [JSON.stringify(fast), JSON.stringify(reference)];
}

/** A Claude Code session: each call's input and the denial text its result carries (none: a success). */
function claudeSession(
  file: string,
  sessionId: string,
  calls: { input: unknown; denied?: string; kind?: "permission-rule" | "user-rejected" }[],
): void {
  let at = Date.parse("2026-11-20T10:00:00.000Z");
  const base = (type: string) => {
    at += 1000;
    return { sessionId, type, timestamp: new Date(at).toISOString() };
  };
  const lines: unknown[] = [{ ...base("user"), message: { role: "user", content: "clean up" } }];
  for (const [index, call] of calls.entries()) {
    const id = `toolu_${index}`;
    const content = [{ type: "tool_use", id, name: "Bash", input: call.input }];
    lines.push({ ...base("assistant"), message: { role: "assistant", content } });
    const output = call.denied ?? "done";
    const result = { type: "tool_result", content: output, is_error: call.denied !== undefined, tool_use_id: id };
    lines.push({
      ...base("user"),
      message: { role: "user", content: [result] },
      ...(call.denied === undefined
        ? { toolUseResult: { stdout: output, stderr: "" } }
        : {
            toolUseResult: `Error: ${output}`,
            toolDenialKind: call.kind ?? "permission-rule",
            permissionDecision: {
              decision: "reject",
              source: "config",
              reasonType: (call.kind ?? "permission-rule") === "permission-rule" ? "rule" : "other",
            },
          }),
    });
  }
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
}

describe("the fast replay gives the reference replay's result", () => {
  test("on every recorded transcript, read together", async () => {
    const files = findTranscripts([fixtures], empty);
    expect(files.length).toBeGreaterThan(50);
    const [fast, reference] = await both({ files });
    expect(fast).toBe(reference);
  });

  test("on each recorded transcript alone", async () => {
    for (const file of findTranscripts([fixtures], empty)) {
      const [fast, reference] = await both({ files: [file] });
      expect(fast, file).toBe(reference);
    }
  });

  test("when one input is denied with different reasons, carries a secret, and comes back as an equal object", async () => {
    const folder = mkdtempSync(join(empty, "session-"));
    const file = join(folder, "secrets.session.jsonl");
    const secret = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB";
    const curl = { command: `curl -H "Authorization: Bearer ${secret}" https://example.com`, description: "fetch" };
    const denied = (reason: string) => `Permission to use Bash with command ${curl.command} has been denied. ${reason}`;
    claudeSession(file, "9c0e6c1e-2222-4c3a-9d7e-000000000001", [
      { input: curl, denied: denied("first") },
      { input: { ...curl }, denied: denied("second") },
      { input: { command: "ls" } },
      { input: JSON.parse(JSON.stringify(curl)), denied: denied("first") },
      { input: { description: "fetch", command: curl.command }, denied: denied("third") },
      { input: { command: "git push --force" }, denied: denied("by rule") },
      { input: { command: "git push --force" }, denied: denied("by the user"), kind: "user-rejected" },
    ]);
    const [fast, reference] = await both({ files: [file] });
    expect(fast).toBe(reference);
    expect(fast).not.toContain(secret);
    const { analysis } = JSON.parse(fast).sessions[0];
    expect(analysis.denialCount).toBe(6);
    // no `entrypoint` in this transcript: the rejection is a person's, not a headless denial
    expect(analysis.deniedBySource).toEqual({ rule: 5, user: 1 });
    expect(analysis.suggestedRules.map((rule: { rule: string }) => rule.rule)).toContain("Bash(git push --force)");
  });
});
