/**
 * The resident hook (docs/resident-hook.md) under the real Gemini CLI 0.61.0 binary, run bare (`gemini -p`, no
 * `toolgate run`): toolgate knows the run is headless only from Gemini's command line, which the server reads through
 * the host pid the client sends (TOOLGATE_HOOK_PARENT_PID), not from its own parent. The same stubborn script runs
 * once with the default Node hook and once with every event answered by the server (the installed command names a
 * node that does not exist); both must stop the run the same way.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { serverOnlyCommand, startResidentServer, stopResidentServer } from "../resident-server.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import { createGeminiWorkspace, type GeminiWorkspace, rmPolicy, runGemini } from "./gemini-workspace.js";

const VARIANTS = ["rm -rf victim", "rm -rf ./victim", "rm -r victim", "rm -rf victim/", "rm -fr victim"];
const STUBBORN = VARIANTS.map((command) => ({ command }));

interface Outcome {
  served: number;
  errors: string[];
  lastErrorType: string | undefined;
  exitCode: number | null;
}

describe("Gemini CLI 0.61.0 with the resident hook, headless without toolgate run", () => {
  const workspaces: GeminiWorkspace[] = [];
  const fakes: FakeGemini[] = [];
  let nodeHook: Outcome;
  let resident: Outcome;
  let residentWorkspace: GeminiWorkspace;

  async function scenario(options: { command?: string; prepare?: (workspace: GeminiWorkspace) => Promise<void> }) {
    const workspace = createGeminiWorkspace({ policy: rmPolicy("deny") });
    workspaces.push(workspace);
    await options.prepare?.(workspace);
    const env = { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") };
    const args = [
      "install",
      "gemini",
      "--user",
      ...(options.command === undefined ? [] : ["--command", options.command]),
    ];
    const install = runToolgate({ args, cwd: workspace.project, env });
    expect(install.exitCode, install.stderr).toBe(0);
    const fake = await startFakeGemini({ steps: STUBBORN });
    fakes.push(fake);
    const run = await runGemini({ workspace, url: fake.url });
    const results = run.events.filter((event) => event["type"] === "tool_result");
    return {
      workspace,
      outcome: {
        served: fake.served.length,
        errors: fake.toolResults().map((result) => String(result.response["error"])),
        lastErrorType: (results.at(-1)?.["error"] as { type?: string } | undefined)?.type,
        exitCode: run.exitCode,
      },
    };
  }

  beforeAll(async () => {
    assertBuilt();
    nodeHook = (await scenario({})).outcome;
    const served = await scenario({
      command: serverOnlyCommand("gemini"),
      prepare: async (workspace) => {
        await startResidentServer({
          host: "gemini",
          event: {
            session_id: "warm-up",
            cwd: workspace.project,
            hook_event_name: "BeforeAgent",
            prompt: "hello",
            timestamp: new Date().toISOString(),
            transcript_path: join(workspace.root, "none.json"),
          },
          cwd: workspace.project,
          env: workspace.env("http://127.0.0.1:9"),
          home: workspace.home,
        });
      },
    });
    resident = served.outcome;
    residentWorkspace = served.workspace;
  }, 360_000);

  afterAll(async () => {
    stopResidentServer(residentWorkspace?.home);
    removeSnapshot();
    for (const fake of fakes) await fake.close();
    for (const workspace of workspaces) workspace.remove();
  });

  it("the Node hook knows the run is headless from Gemini's command line and stops it at the threshold", () => {
    expect(nodeHook.served).toBeGreaterThan(1);
    expect(nodeHook.served).toBeLessThan(VARIANTS.length);
    expect(nodeHook.lastErrorType).toBe("stop_execution");
  });

  it("the resident server does the same, from the host pid the client sends", () => {
    expect(resident).toEqual(nodeHook);
    for (const error of resident.errors) expect(error).toMatch(/^Tool execution blocked: \[toolgate\] /);
  });
});
