/**
 * GitHub Copilot CLI 1.0.102, offline: `toolgate run` exit 5 for a refused call, and the install as Copilot reads it
 * (user and project scopes: the hooks file loads, doctor sees it, uninstall leaves the folder as it was).
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot, runToolgate } from "../claude/toolgate-cli.js";
import { type Script, toolResults } from "../opencode/fake-openai.js";
import {
  type CopilotRun,
  type CopilotWorkspace,
  copilotWorkspace,
  installToolgate,
  runCopilot,
  toolResultsPerRequest,
} from "./run-copilot.js";

/** A model that runs `command` once, then gives up whatever it was told. */
function once(command: string): Script {
  return (request) =>
    toolResults(request) === 0
      ? { kind: "tools", calls: [{ tool: "bash", args: { command, description: "Run it" } }] }
      : { kind: "text", text: "FINAL: done." };
}

const workspaces: CopilotWorkspace[] = [];
const runs: CopilotRun[] = [];
afterAll(async () => {
  for (const run of runs) await run.fake.close();
  for (const workspace of workspaces) workspace.remove();
  removeSnapshot();
});

function workspace(options: { toolgateConfig?: unknown } = {}): CopilotWorkspace {
  const created = copilotWorkspace(options);
  workspaces.push(created);
  return created;
}

function toolgate(at: CopilotWorkspace, args: string[]) {
  return runToolgate({ args, cwd: at.project, env: at.env });
}

describe("toolgate run -- copilot -p (no toolgate hooks installed)", () => {
  let refused: CopilotRun;
  let tolerated: CopilotRun;
  beforeAll(async () => {
    assertBuilt();
    const args = ["--allow-tool=shell", "--deny-tool=shell(rm)"];
    refused = await runCopilot({
      workspace: workspace(),
      script: once("rm -rf victim"),
      copilotArgs: args,
      viaToolgate: true,
    });
    runs.push(refused);
    tolerated = await runCopilot({
      workspace: workspace(),
      script: once("rm -rf victim"),
      copilotArgs: args,
      viaToolgate: true,
      toolgateArgs: ["--fail-on", "abort"],
    });
    runs.push(tolerated);
  }, 400_000);

  it("a call Copilot's own rule refused fails the job with 5, summarised from the JSON stream (Copilot itself exits 0)", () => {
    expect(refused.timedOut).toBe(false);
    expect(refused.exitCode, refused.stderr).toBe(5);
    expect(refused.stderr).toContain("toolgate run: 1 denied call.");
    expect(refused.stdout).toContain('"exitCode":0');
  });

  it("--fail-on abort keeps Copilot's exit 0 for a plain refusal", () => {
    expect(tolerated.exitCode, tolerated.stderr).toBe(0);
    expect(tolerated.stderr).toContain("toolgate run: 1 denied call.");
  });
});

describe("install as Copilot reads it", () => {
  it("--user: the hooks file is written under $COPILOT_HOME, doctor sees it, uninstall leaves the folder as it was", () => {
    const at = workspace();
    const hooks = join(at.home, ".copilot", "hooks");
    mkdirSync(hooks, { recursive: true });
    writeFileSync(join(hooks, "mine.json"), '{"version":1,"hooks":{}}\n');
    const dry = toolgate(at, ["install", "copilot", "--user", "--dry-run"]);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(existsSync(join(hooks, "toolgate.json"))).toBe(false);
    expect(toolgate(at, ["install", "copilot", "--user"]).exitCode).toBe(0);
    const doctor = toolgate(at, ["doctor"]);
    expect(doctor.stdout + doctor.stderr).toMatch(/ok\s+copilot hooks \(user\)/);
    expect(toolgate(at, ["uninstall", "copilot", "--user"]).exitCode).toBe(0);
    expect(readdirSync(hooks)).toEqual(["mine.json"]);
  });

  let project: CopilotWorkspace;
  let guarded: CopilotRun;
  beforeAll(async () => {
    assertBuilt();
    project = workspace({ toolgateConfig: { permissions: { deny: ["Bash(rm:*)"] } } });
    expect(toolgate(project, ["install", "copilot", "--project"]).exitCode).toBe(0);
    // --trust-folder: Copilot loads a project's .github/hooks only in a folder it trusts
    guarded = await runCopilot({
      workspace: project,
      script: once("rm -rf victim"),
      copilotArgs: ["--allow-tool=shell", "--trust-folder"],
    });
    runs.push(guarded);
  }, 300_000);

  it("--project: Copilot runs toolgate's hooks from .github/hooks in a trusted folder, and toolgate's rule refuses the call", () => {
    expect(guarded.exitCode, guarded.stderr).toBe(0);
    expect(guarded.victimSurvived).toBe(true);
    const results = toolResultsPerRequest(guarded.fake).at(-1) ?? [];
    expect(results).toHaveLength(1);
    expect(results[0]).toMatch(/^Denied by preToolUse hook: \[toolgate\] Denied by rule Bash\(rm:\*\)/);
  });

  it("--project: uninstall removes the file and the hooks folder install created", () => {
    expect(toolgate(project, ["uninstall", "copilot", "--project"]).exitCode).toBe(0);
    // (an empty .github stays: install cannot know whether it made it)
    expect(existsSync(join(project.project, ".github", "hooks"))).toBe(false);
  });
});

describe("an OS refusal Copilot reports as a success: counted at postToolUse, guidance appended to the result", () => {
  let run: CopilotRun;
  beforeAll(async () => {
    assertBuilt();
    const at = workspace();
    // not executable: the OS refuses, even for root
    writeFileSync(join(at.project, "build.sh"), "#!/bin/sh\necho ran\n");
    chmodSync(join(at.project, "build.sh"), 0o644);
    expect(installToolgate(at).exitCode).toBe(0);
    run = await runCopilot({
      workspace: at,
      script: once("./build.sh"),
      copilotArgs: ["--allow-tool=shell"],
      viaToolgate: true,
    });
    runs.push(run);
  }, 300_000);

  it("the model reads the refusal and toolgate's note in the same tool result, and toolgate run exits 5", () => {
    expect(run.timedOut).toBe(false);
    const result = (toolResultsPerRequest(run.fake).at(-1) ?? [])[0] ?? "";
    expect(result).toContain("Permission denied");
    expect(result).toContain('Tool "bash" succeeded. Additional guidance from postToolUse hooks:');
    expect(result).toContain("This is a permission boundary, not a bug to fix");
    expect(run.exitCode, run.stderr).toBe(5);
  });
});
