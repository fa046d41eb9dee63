/**
 * Denials Gemini CLI 0.61.0 decides itself, which toolgate's BeforeTool does not answer first: a policy rule toolgate
 * cannot express (`commandRegex`). AfterTool never fires for a refused call; toolgate records it from the session
 * file when the turn ends (AfterAgent), under Gemini's own call id, and `toolgate run` counts it once although the
 * `-o stream-json` output shows it too.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import { createGeminiWorkspace, type GeminiWorkspace, runGemini } from "./gemini-workspace.js";

const REGEX_POLICY = `[[rule]]
toolName = "run_shell_command"
decision = "allow"
priority = 100

[[rule]]
toolName = "run_shell_command"
commandRegex = "chmod .*"
decision = "deny"
priority = 200
`;

describe("Gemini CLI 0.61.0: a denial only Gemini decides", () => {
  let workspace: GeminiWorkspace;
  let fake: FakeGemini | undefined;
  beforeAll(() => {
    assertBuilt();
    workspace = createGeminiWorkspace({ policy: REGEX_POLICY });
  });
  afterAll(async () => {
    removeSnapshot();
    await fake?.close();
    workspace?.remove();
  });

  it("is recorded once from the session file, and toolgate run exits 5 counting it once", {
    timeout: 180_000,
  }, async () => {
    const env = { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") };
    expect(runToolgate({ args: ["install", "gemini", "--user"], cwd: workspace.project, env }).exitCode).toBe(0);
    fake = await startFakeGemini({ steps: [{ command: "chmod 777 not-executable.sh" }] });
    const run = await runGemini({ workspace, url: fake.url, underToolgateRun: true });
    expect(run.timedOut).toBe(false);
    // Gemini's own text: toolgate could not express the rule, so it did not answer first
    expect(fake.toolResults()[0]?.response["error"]).toBe("Tool execution denied by policy.");
    expect(run.exitCode, run.stderr).toBe(5);
    expect(run.stderr).toContain("toolgate run: 1 denied call");
    const report = runToolgate({
      args: ["report", "--json", "--session", String(run.sessionId)],
      cwd: workspace.project,
      env,
    });
    expect((JSON.parse(report.stdout) as { total: number }).total).toBe(1);
  });
});
