import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { createSqliteStore } from "../../../src/store/sqlite/sqlite-store.js";
import { workspaceTemporary } from "../claude/run-claude.js";
import {
  type ChatRequest,
  type FakeOpenAI,
  type Script,
  type ScriptedCall,
  startFakeOpenAI,
  toolResults,
} from "../opencode/fake-openai.js";
import { requireBuiltCli, toolResultsIn } from "../opencode/scenario.js";
import {
  type ClineProject,
  clineProject,
  clineSessionFiles,
  installToolgate,
  processesOf,
  runCline,
  TOOLGATE_CLI,
} from "./run-cline.js";

/**
 * toolgate's plugin in the real Cline 3.0.65 binary, offline against the scripted Chat Completions server on
 * 127.0.0.1. Every assertion reads what the model was sent (the server's request log), what Cline and `toolgate
 * run` exited with, or what toolgate stored.
 */
const DENY_RM = { permissions: { deny: ["Bash(rm *)"] } };
const FILES = { "build/out.txt": "built", "victim/keep.txt": "keep" };
/** a model that keeps trying to remove the folder, a small variation each time */
const VARIANTS = [
  "rm -rf build",
  "rm -rf ./build",
  "rm -r build",
  "rm -rf build/",
  "rm -fr build",
  "rm -fr ./build/",
  "rm -Rf build",
  "rm  -rf build",
];
const GIVE_UP = "FINAL: I could not remove the build folder.";

function commands(...list: string[]): ScriptedCall {
  return { tool: "run_commands", args: { commands: list } };
}

/** One scripted call per step, by the number of tool results the conversation has; then `final`. */
function steps(calls: ScriptedCall[], final = GIVE_UP): Script {
  return (request: ChatRequest) => {
    const step = calls[toolResults(request)];
    return step === undefined ? { kind: "text", text: final } : { kind: "tools", calls: [step] };
  };
}

/** the `run_result` line `cline --json` ends its output with */
function runResult(stdout: string): Record<string, unknown> {
  const line = stdout.split("\n").find((text) => text.includes('"type":"run_result"'));
  return JSON.parse(line ?? "{}") as Record<string, unknown>;
}

const opened: { fake: FakeOpenAI; project: ClineProject }[] = [];

async function scenario(options: { script: Script; toolgate: boolean }) {
  requireBuiltCli();
  const fake = await startFakeOpenAI(options.script);
  const project = clineProject({ fake, files: FILES, toolgateConfig: DENY_RM });
  opened.push({ fake, project });
  if (options.toolgate) {
    const installed = installToolgate(project);
    expect(installed.status, installed.stderr).toBe(0);
  }
  return { fake, project };
}

/** what the model read back for each call: the tool results of the last request */
function resultsSeen(fake: FakeOpenAI): string[] {
  const last = fake.agentRequests().at(-1)?.body.messages ?? [];
  return toolResultsIn(last.filter((message) => message.role !== "system"));
}

async function stored(project: ClineProject) {
  const store = await createSqliteStore({ filename: project.database });
  try {
    return { records: await store.denials.query(), events: await store.denials.queryEvents() };
  } finally {
    await store.close();
  }
}

afterEach(async () => {
  for (const { fake, project } of opened.splice(0)) {
    await fake.close();
    // tests leave nothing running: no hub daemon, no plugin sandbox
    expect(processesOf(project)).toEqual([]);
  }
});

describe("toolgate in the real cline binary", () => {
  test("baseline without toolgate: the stubborn model runs to its end and every variant runs (exit 0)", async () => {
    const { fake, project } = await scenario({
      script: steps(VARIANTS.map((command) => commands(command))),
      toolgate: false,
    });
    const run = await runCline(project, { prompt: "Please clean the build" });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(fake.agentRequests()).toHaveLength(VARIANTS.length + 1);
    expect(resultsSeen(fake)).toHaveLength(VARIANTS.length);
    expect(resultsSeen(fake).join("\n")).not.toContain("toolgate");
    expect(existsSync(join(project.projectDir, "build"))).toBe(false);
    expect(runResult(run.stdout)).toMatchObject({ finishReason: "completed" });
  }, 300_000);

  test("with toolgate: the stubborn model is stopped at the threshold, reads toolgate's text, and `toolgate run` exits 6", async () => {
    const { fake, project } = await scenario({
      script: steps(VARIANTS.map((command) => commands(command))),
      toolgate: true,
    });
    const run = await runCline(project, {
      prompt: "Please clean the build",
      underToolgateRun: true,
      env: { TOOLGATE_DENY_THRESHOLD: "3" },
    });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(6);
    expect(run.stderr).toContain("toolgate aborted the run");
    // the third variant is the last call the model made: Cline ended the run there (`stop`)
    expect(fake.agentRequests()).toHaveLength(3);
    const seen = resultsSeen(fake);
    expect(seen).toHaveLength(2);
    for (const text of seen) expect(text).toContain("[toolgate] Denied by rule Bash(rm *)");
    expect(runResult(run.stdout)).toMatchObject({ finishReason: "aborted" });
    // nothing was removed
    expect(readFileSync(join(project.projectDir, "build", "out.txt"), "utf8")).toBe("built");
    const { records, events } = await stored(project);
    expect(records).toHaveLength(3);
    expect(
      records.map((record) => [record.tool, record.canonicalTool, record.toolFamily, record.source, record.rule]),
    ).toEqual(Array.from({ length: 3 }, () => ["run_commands", "shell", "shell", "rule", "Bash(rm *)"]));
    // filed under Cline's own session id (its session folder)
    const sessionIds = clineSessionFiles(project).map((file) => file.split("/").at(-2));
    expect(new Set(records.map((record) => record.sessionId))).toEqual(new Set(sessionIds));
    expect(events.filter((event) => event.kind === "run.aborted")).toHaveLength(1);
  }, 300_000);

  test("an honest exit 5: the required call is refused, the model finishes, Cline exits 0 and `toolgate run` 5", async () => {
    const { fake, project } = await scenario({
      script: steps(
        [commands("echo checking"), commands("rm -rf build")],
        "FINAL: the build folder could not be removed.",
      ),
      toolgate: true,
    });
    const run = await runCline(project, { prompt: "Please clean the build", underToolgateRun: true });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(5);
    expect(run.stderr).toContain("1 denied call");
    const seen = resultsSeen(fake);
    expect(seen[0]).toContain("checking");
    expect(seen[1]).toContain("[toolgate] Denied by rule Bash(rm *): rm -rf build");
    expect(runResult(run.stdout)).toMatchObject({ finishReason: "completed" });
    expect(existsSync(join(project.projectDir, "build", "out.txt"))).toBe(true);
  }, 300_000);

  test("Cline's own headless refusal (--auto-approve false) is counted as a headless denial", async () => {
    const { fake, project } = await scenario({ script: steps([commands("echo hi")], "FINAL: done."), toolgate: true });
    const run = await runCline(project, {
      prompt: "Say hi",
      underToolgateRun: true,
      args: ["--auto-approve", "false"],
    });
    expect(run.exitCode, run.stderr).toBe(5);
    expect(resultsSeen(fake)[0]).toContain("requires approval in a TTY session");
    const { records } = await stored(project);
    expect(records.map((record) => [record.tool, record.source])).toEqual([["run_commands", "headless"]]);
  }, 300_000);

  test("`toolgate analyze` reads the session file Cline wrote: the denial, its source, the session", async () => {
    const { project } = await scenario({
      script: steps([commands("echo checking"), commands("rm -rf build")], "FINAL: stopped."),
      toolgate: true,
    });
    const run = await runCline(project, { prompt: "Please clean the build" });
    expect(run.exitCode, run.stderr).toBe(0);
    const files = clineSessionFiles(project);
    expect(files).toHaveLength(1);
    const analyzed = spawnSync(
      process.execPath,
      [TOOLGATE_CLI, "analyze", join(project.home, ".cline", "data", "sessions"), "--json"],
      {
        cwd: project.projectDir,
        env: {
          ...process.env,
          HOME: project.home,
          TMPDIR: workspaceTemporary(project.home),
          TOOLGATE_DB: project.database,
        },
        encoding: "utf8",
      },
    );
    expect(analyzed.status, analyzed.stderr).toBe(0);
    const report = JSON.parse(analyzed.stdout) as {
      sessions: { host: string; sessionId: string; toolCalls: number; denialCount: number; deniedBySource: object }[];
    };
    expect(report.sessions).toHaveLength(1);
    expect(report.sessions[0]).toMatchObject({
      host: "cline",
      sessionId: files[0]?.split("/").at(-2),
      toolCalls: 2,
      denialCount: 1,
      deniedBySource: { hook: 1 },
    });
  }, 300_000);
});
