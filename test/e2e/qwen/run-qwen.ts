/**
 * One real Qwen Code 0.24.4 run against the project's scripted Chat Completions server on 127.0.0.1: a fresh HOME
 * with `~/.qwen/settings.json` (the given permissions; telemetry, usage statistics, auto-memory, auto-skill and
 * update checks off), a fresh project with a `victim/` directory, stdin closed, a hard timeout. With `toolgate`,
 * toolgate's hooks are installed by `toolgate install qwen --user` and the run goes through `toolgate run --`.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";
import { type FakeOpenAI, type Script, startFakeOpenAI } from "../opencode/fake-openai.js";

export const QWEN_BINARY = join(import.meta.dirname, "..", "node_modules", ".bin", "qwen");

export interface QwenWorkspace {
  root: string;
  home: string;
  project: string;
  database: string;
  env: Record<string, string>;
  remove(): void;
}

export function qwenWorkspace(options: {
  permissions: Record<string, unknown>;
  toolgateConfig?: unknown;
}): QwenWorkspace {
  const root = mkdtempSync(join(tmpdir(), "toolgate-e2e-qwen-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".qwen"), { recursive: true });
  mkdirSync(join(project, "victim"), { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep me\n");
  writeFileSync(
    join(home, ".qwen", "settings.json"),
    `${JSON.stringify(
      {
        permissions: options.permissions,
        memory: { enableManagedAutoMemory: false, enableManagedAutoDream: false, enableAutoSkill: false },
        privacy: { usageStatisticsEnabled: false },
        telemetry: { enabled: false },
        general: { disableAutoUpdate: true, disableUpdateNag: true },
      },
      null,
      2,
    )}\n`,
  );
  if (options.toolgateConfig !== undefined) {
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(options.toolgateConfig, null, 2));
  }
  const database = join(root, "toolgate.db");
  const env: Record<string, string> = {
    HOME: home,
    TERM: "dumb",
    NO_COLOR: "1",
    TOOLGATE_DB: database,
    QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
  };
  for (const name of ["PATH", "LANG", "TZ", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { root, home, project, database, env, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** `toolgate install qwen --user` into the workspace's HOME; returns the CLI's result. */
export function installToolgate(workspace: QwenWorkspace) {
  return runToolgate({ args: ["install", "qwen", "--user"], cwd: workspace.project, env: workspace.env });
}

export interface QwenRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  fake: FakeOpenAI;
  /** the session id from the stream-json output */
  sessionId: string | undefined;
  victimSurvived: boolean;
}

export async function runQwen(options: {
  workspace: QwenWorkspace;
  script: Script;
  qwenArgs: string[];
  prompt?: string;
  /** run through `toolgate run --` */
  viaToolgate?: boolean;
  /** set in Qwen's environment besides the workspace's */
  env?: Record<string, string>;
  timeoutMs?: number;
}): Promise<QwenRun> {
  const fake = await startFakeOpenAI(options.script);
  const qwen = [
    QWEN_BINARY,
    "--auth-type",
    "openai",
    "--output-format",
    "stream-json",
    ...options.qwenArgs,
    "-p",
    options.prompt ?? "Please delete the victim directory.",
  ];
  const argv = options.viaToolgate === true ? [...toolgateCommand("run", "--"), ...qwen] : qwen;
  const env = {
    ...options.workspace.env,
    ...options.env,
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: "fake-key",
    OPENAI_MODEL: "fake-model",
  };
  const child = spawn(argv[0] as string, argv.slice(1), {
    cwd: options.workspace.project,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? 150_000);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  const sessionId = /"session_id":"([^"]+)"/.exec(stdout)?.[1];
  return {
    exitCode,
    stdout,
    stderr,
    timedOut,
    fake,
    sessionId,
    victimSurvived: existsSync(join(options.workspace.project, "victim", "keep.txt")),
  };
}

/** The text of every tool result and user message the model was sent, per agent request. */
export function modelInputs(fake: FakeOpenAI): { toolResults: string[]; userTexts: string[] }[] {
  return fake.agentRequests().map((entry) => {
    const messages = entry.body.messages ?? [];
    const text = (content: unknown) =>
      typeof content === "string"
        ? content
        : Array.isArray(content)
          ? content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("")
          : "";
    return {
      toolResults: messages.filter((message) => message.role === "tool").map((message) => text(message.content)),
      userTexts: messages.filter((message) => message.role === "user").map((message) => text(message.content)),
    };
  });
}

/** The records toolgate stored for a session, through the CLI (`toolgate tail --json`). */
export function storedDenials(workspace: QwenWorkspace, sessionId: string): Record<string, unknown>[] {
  const result = runToolgate({
    args: ["tail", "--session", sessionId, "--no-follow", "--json", "--lines", "200"],
    cwd: workspace.project,
    env: workspace.env,
  });
  if (result.exitCode !== 0) throw new Error(`toolgate tail failed (${result.exitCode}): ${result.stderr}`);
  return result.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function readJsonLines(path: string): Record<string, unknown>[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
