/**
 * A Gemini policy `ask_user` in a headless run, with the real Gemini CLI 0.61.0 and not under `toolgate run`:
 * Gemini tells its hooks nothing about whether a person is there, so toolgate reads the command line of the Gemini
 * process that started the hook (`-p`: headless) and declines the ask first, as Gemini would, with its own text.
 * With `TOOLGATE_INTERACTIVE=1` it leaves the ask to Gemini, which declines it with its own text; toolgate then
 * records that decline from the session file when the turn ends.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import { createGeminiWorkspace, type GeminiWorkspace, rmPolicy, runGemini } from "./gemini-workspace.js";

describe("Gemini CLI 0.61.0: a headless ask_user", () => {
  const workspaces: GeminiWorkspace[] = [];
  const fakes: FakeGemini[] = [];
  beforeAll(() => assertBuilt());
  afterAll(async () => {
    removeSnapshot();
    for (const fake of fakes) await fake.close();
    for (const workspace of workspaces) workspace.remove();
  });

  async function askRun(env: Record<string, string>) {
    const workspace = createGeminiWorkspace({ policy: rmPolicy("ask_user") });
    workspaces.push(workspace);
    const install = runToolgate({
      args: ["install", "gemini", "--user"],
      cwd: workspace.project,
      env: { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") },
    });
    expect(install.exitCode).toBe(0);
    const fake = await startFakeGemini({ steps: [{ command: "rm -rf victim" }] });
    fakes.push(fake);
    const run = await runGemini({ workspace, url: fake.url, env });
    expect(run.timedOut).toBe(false);
    const report = runToolgate({
      args: ["report", "--json", "--session", String(run.sessionId)],
      cwd: workspace.project,
      env: { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") },
    });
    const recorded = (JSON.parse(report.stdout) as { total: number }).total;
    return { error: String(fake.toolResults()[0]?.response["error"]), recorded };
  }

  it("gemini -p: toolgate sees the headless run and declines first, with its guidance", {
    timeout: 180_000,
  }, async () => {
    const { error, recorded } = await askRun({});
    expect(recorded).toBe(1);
    expect(error).toMatch(
      /^Tool execution blocked: \[toolgate\] rm -rf victim needs approval, and this run is non-interactive/,
    );
  });

  it("TOOLGATE_INTERACTIVE=1: the ask is left to Gemini, which declines it itself", { timeout: 180_000 }, async () => {
    const { error, recorded } = await askRun({ TOOLGATE_INTERACTIVE: "1" });
    expect(error).toContain("requires user confirmation, which is not supported in non-interactive mode");
    // AfterTool never fires for it: recorded from the session file when the turn ends
    expect(recorded).toBe(1);
  });
});
