/**
 * Bad input never becomes an allow, with the real Gemini CLI 0.61.0: a user policy file that is not valid TOML makes
 * toolgate's BeforeTool refuse every call with a sentence naming the file (Gemini itself reports the broken file,
 * `[USER] Policy file error in broken.toml`, and goes on with the others), and an event toolgate cannot read is
 * refused with exit 2, which Gemini treats as a block.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type FakeGemini, startFakeGemini } from "./fake-gemini.js";
import { createGeminiWorkspace, type GeminiWorkspace, rmPolicy, runGemini } from "./gemini-workspace.js";

describe("Gemini CLI 0.61.0 with toolgate's hooks: fail closed", () => {
  let workspace: GeminiWorkspace;
  let fake: FakeGemini | undefined;
  beforeAll(() => {
    assertBuilt();
    workspace = createGeminiWorkspace({ policy: rmPolicy("deny") });
  });
  afterAll(async () => {
    removeSnapshot();
    await fake?.close();
    workspace?.remove();
  });

  it("a broken Gemini policy file: every call is refused with toolgate's reason naming the file, none runs", {
    timeout: 180_000,
  }, async () => {
    const env = { HOME: workspace.home, TOOLGATE_DB: join(workspace.root, "toolgate.db") };
    expect(runToolgate({ args: ["install", "gemini", "--user"], cwd: workspace.project, env }).exitCode).toBe(0);
    writeFileSync(join(workspace.home, ".gemini", "policies", "broken.toml"), "[[rule]\n");
    fake = await startFakeGemini({ steps: [{ command: "touch made-by-the-model.txt" }] });
    const run = await runGemini({ workspace, url: fake.url });
    expect(run.timedOut).toBe(false);
    const error = String(fake.toolResults()[0]?.response["error"]);
    expect(error).toMatch(/^Tool execution blocked: toolgate could not check this call and blocked it to be safe/);
    expect(error).toContain("broken.toml");
    expect(existsSync(join(workspace.project, "made-by-the-model.txt"))).toBe(false);
  });

  it("an event toolgate cannot read is refused with exit 2 and a sentence on stderr", () => {
    const result = runToolgate({
      args: ["hook", "gemini"],
      cwd: workspace.project,
      input: "not json",
      env: { HOME: workspace.home },
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain("toolgate hook gemini");
  });
});
