/**
 * Qwen Code 0.24.4 with toolgate's hooks, real binary, scripted model on 127.0.0.1: a headless `ask` (Qwen declines
 * it itself, no hook fires), an OS-level refusal (nudged through PostToolUseFailure), and the records against the
 * per-denial hook payloads with a secret in the denied command.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { assertBuilt, removeSnapshot } from "../claude/toolgate-cli.js";
import {
  installToolgate,
  modelInputs,
  type QwenRun,
  type QwenWorkspace,
  qwenWorkspace,
  readJsonLines,
  runQwen,
  storedDenials,
} from "./run-qwen.js";
import { shellScript } from "./scripts.js";

const workspaces: QwenWorkspace[] = [];
const runs: QwenRun[] = [];

beforeAll(() => assertBuilt());
afterAll(async () => {
  for (const run of runs) await run.fake.close();
  for (const workspace of workspaces) workspace.remove();
  removeSnapshot();
});

async function guardedRun(options: {
  permissions: Record<string, unknown>;
  commands: string[];
  qwenArgs: string[];
  toolgateConfig?: unknown;
  prepare?: (workspace: QwenWorkspace) => void;
  classifierBlocks?: boolean;
}) {
  const workspace = qwenWorkspace({
    permissions: options.permissions,
    ...(options.toolgateConfig === undefined ? {} : { toolgateConfig: options.toolgateConfig }),
  });
  workspaces.push(workspace);
  options.prepare?.(workspace);
  const installed = installToolgate(workspace);
  expect(installed.exitCode, installed.stderr).toBe(0);
  const run = await runQwen({
    workspace,
    script: shellScript(options.commands, undefined, { classifierBlocks: options.classifierBlocks === true }),
    qwenArgs: options.qwenArgs,
    viaToolgate: true,
  });
  runs.push(run);
  return { workspace, run };
}

describe("headless ask: Qwen declines it without a hook; toolgate counts it from the transcript", () => {
  let run: QwenRun;
  let workspace: QwenWorkspace;
  beforeAll(async () => {
    ({ run, workspace } = await guardedRun({
      permissions: { ask: ["Bash(git push *)"] },
      commands: ["git push origin main", "git push origin HEAD", "git push"],
      qwenArgs: ["--approval-mode", "default", "--allowed-tools", "run_shell_command(echo *)"],
    }));
  }, 300_000);

  it("records the declines with source headless and stops the run at the threshold (exit 6)", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(6);
    const first = modelInputs(run.fake)[1];
    expect(first?.toolResults[0]).toContain("non-interactive mode cannot prompt for confirmation");
    expect(first?.toolResults[0]).toContain("[toolgate] git push origin main needs approval");
    const records = storedDenials(workspace, run.sessionId as string);
    expect(records.map((record) => record["source"])).toEqual(["headless", "headless"]);
    expect(run.stderr).toContain("minimal allow rule");
  });
});

describe("auto mode: Qwen's classifier blocks, counted with source classifier through PostToolBatch", () => {
  let run: QwenRun;
  let workspace: QwenWorkspace;
  beforeAll(async () => {
    ({ run, workspace } = await guardedRun({
      permissions: {},
      commands: ["git push origin main", "git push origin HEAD", "git push"],
      qwenArgs: ["--approval-mode", "auto", "--allowed-tools", "run_shell_command(echo *)"],
      classifierBlocks: true,
    }));
  }, 300_000);

  it("records the blocks as classifier denials and stops the run at the threshold (exit 6)", () => {
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(6);
    const first = modelInputs(run.fake).find((input) => input.toolResults.length > 0);
    expect(first?.toolResults[0]).toContain("Blocked by auto mode policy: scripted classifier verdict");
    expect(first?.toolResults[0]).toContain("[toolgate]");
    const records = storedDenials(workspace, run.sessionId as string);
    expect(records.map((record) => record["source"])).toEqual(["classifier", "classifier"]);
  });
});

describe("OS-level refusal: counted from PostToolUseFailure and nudged in the tool result", () => {
  let run: QwenRun;
  beforeAll(async () => {
    ({ run } = await guardedRun({
      permissions: {},
      commands: ["./build.sh", "./deploy.sh", "echo done"],
      qwenArgs: ["--approval-mode", "yolo"],
      prepare: (workspace) => {
        // Each script runs a generator that is not executable (the OS refuses, even for root), then lingers a second
        // before it exits with the refusal's status. Qwen runs commands in a pty, and node-pty destroys the terminal
        // 200 ms after the process exits: under load the refusal's text of a command that fails at once can be lost
        // ("Output: (empty)", only "Exit Code: 126"), leaving nothing to recognise. The linger keeps the text ahead of
        // the exit, so this scenario checks toolgate rather than that race.
        mkdirSync(join(workspace.project, "tools"));
        writeFileSync(join(workspace.project, "tools", "gen.sh"), "#!/bin/sh\necho ran\n", { mode: 0o644 });
        for (const script of ["build.sh", "deploy.sh"]) {
          const body = "#!/bin/bash\n./tools/gen.sh\nstatus=$?\nsleep 1\nexit $status\n";
          writeFileSync(join(workspace.project, script), body, { mode: 0o755 });
        }
      },
    }));
  }, 300_000);

  it("tells the model it hit a permission boundary, then nudges after two in a row", () => {
    expect(run.timedOut).toBe(false);
    const results = modelInputs(run.fake).at(-1)?.toolResults ?? [];
    expect(results[0]).toContain("Permission denied");
    expect(results[0]).toContain("This is a permission boundary, not a bug to fix");
    expect(results[1]).toContain("operating-system permission errors (2 in a row)");
    expect(results[2]).toContain("Output: done");
    expect(run.exitCode, run.stderr).toBe(5);
  });
});

describe("records and per-denial hook payloads match; the secret in the call is redacted everywhere", () => {
  const TOKEN = `ghp_${"a1B2c3D4e5".repeat(4)}`;
  let run: QwenRun;
  let workspace: QwenWorkspace;
  let hookLog: string;
  beforeAll(async () => {
    ({ run, workspace } = await guardedRun({
      permissions: { deny: ["Bash(rm *)"] },
      commands: [`rm -rf victim/${TOKEN}`, `rm -rf ./victim/${TOKEN}`, "rm -r victim"],
      qwenArgs: ["--approval-mode", "yolo"],
      prepare: (created) => {
        hookLog = join(created.root, "denials.jsonl");
        created.env["TOOLGATE_TEST_HOOK_LOG"] = hookLog;
      },
      toolgateConfig: {
        audit: { logs: { destination: "off" }, hooks: [{ command: 'cat >> "$TOOLGATE_TEST_HOOK_LOG"' }] },
      },
    }));
  }, 300_000);

  it("writes one record and one hook payload per denial, the same calls, no secret in either", () => {
    expect(run.exitCode, run.stderr).toBe(6);
    const records = storedDenials(workspace, run.sessionId as string);
    expect(records).toHaveLength(2);
    const payloads = readJsonLines(hookLog);
    expect(payloads).toHaveLength(2);
    const ids = (rows: Record<string, unknown>[], key: string) => rows.map((row) => String(row[key])).sort();
    expect(ids(payloads, "tool_use_id")).toEqual(ids(records, "toolUseId"));
    expect(JSON.stringify(records)).not.toContain(TOKEN);
    expect(JSON.stringify(payloads)).not.toContain(TOKEN);
    expect(run.stderr).not.toContain(TOKEN);
    // the model itself typed the token; toolgate's guidance does not echo it back
    const guidance = modelInputs(run.fake)
      .flatMap((input) => [...input.toolResults, ...input.userTexts])
      .filter((text) => text.includes("[toolgate]"));
    expect(guidance.length).toBeGreaterThan(0);
    for (const text of guidance) expect(text).not.toContain(TOKEN);
  });
});
