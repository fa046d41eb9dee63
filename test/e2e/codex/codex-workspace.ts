import { spawn } from "node:child_process";
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { workspaceTemporary } from "../claude/run-claude.js";
import { runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";
import { type FakeResponses, startFakeResponses } from "./fake-responses.js";

/** The pinned Codex CLI (test/e2e/package.json: @openai/codex 0.171.0, its platform package brings the binary). */
export const CODEX_BIN = join(import.meta.dirname, "..", "node_modules", ".bin", "codex");

/**
 * One offline Codex world: a temporary HOME with CODEX_HOME inside, a project with victim/, a config.toml that
 * points Codex at the scripted Responses server on 127.0.0.1 with analytics, feedback, update checks and plugins
 * off, `.rules` files, and a store for toolgate. Everything lives under one temp dir that `remove()` deletes.
 */
export interface CodexWorld {
  root: string;
  home: string;
  codexHome: string;
  project: string;
  database: string;
  fake: FakeResponses;
  env: Record<string, string>;
  remove(): Promise<void>;
}

export async function createCodexWorld(options: {
  commands: readonly string[];
  rules?: string;
  sandbox?: "workspace-write" | "read-only";
  /** toolgate.config.json in the project */
  toolgateConfig?: unknown;
  /** the model's name (default `fake-model`, which Codex's model catalog does not know) */
  model?: string;
  /** approvals go to Codex's auto-reviewer (`approval_policy = "on-request"`, `approvals_reviewer = "auto_review"`),
   * which the fake model answers with `review`; every shell call asks for approval */
  autoReview?: { outcome: "allow" | "deny"; rationale: string };
}): Promise<CodexWorld> {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-codex-")));
  const home = join(root, "home");
  const codexHome = join(home, ".codex");
  const project = join(root, "project");
  mkdirSync(join(codexHome, "rules"), { recursive: true });
  mkdirSync(join(project, "victim"), { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep\n");
  if (options.toolgateConfig !== undefined) {
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(options.toolgateConfig, null, 2));
  }
  const fake = await startFakeResponses({
    commands: options.commands,
    // gpt-6.2-astra's catalog entry (the one with 0.171.0's reworded rejection instructions) sends no tools list
    ...(options.autoReview === undefined
      ? {}
      : { escalate: true, review: options.autoReview, callsWithoutToolList: true }),
  });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      `model = "${options.model ?? "fake-model"}"`,
      'model_provider = "fake"',
      "check_for_update_on_startup = false",
      ...(options.autoReview === undefined
        ? ['approval_policy = "never"']
        : ['approval_policy = "on-request"', 'approvals_reviewer = "auto_review"']),
      `sandbox_mode = "${options.sandbox ?? "workspace-write"}"`,
      "[model_providers.fake]",
      'name = "Fake"',
      `base_url = "${fake.baseUrl}"`,
      'env_key = "FAKE_API_KEY"',
      'wire_api = "responses"',
      "[analytics]",
      "enabled = false",
      "[feedback]",
      "enabled = false",
      "",
    ].join("\n"),
  );
  if (options.rules !== undefined) writeFileSync(join(codexHome, "rules", "test.rules"), options.rules);
  const database = join(root, "toolgate.db");
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    // inside the workspace, removed with it: Codex's own folders (its sandbox's mount targets) and toolgate run's
    TMPDIR: workspaceTemporary(home),
    HOME: home,
    CODEX_HOME: codexHome,
    FAKE_API_KEY: "fake",
    TOOLGATE_DB: database,
    TOOLGATE_CODEX_BIN: CODEX_BIN,
    TERM: "dumb",
    NO_COLOR: "1",
  };
  return {
    root,
    home,
    codexHome,
    project,
    database,
    fake,
    env,
    async remove() {
      // Codex makes /tmp/codex-daemon-<uid> for its daemon's socket whatever TMPDIR says: removed when empty (a
      // folder still holding a socket belongs to a Codex that is running, and stays)
      try {
        rmdirSync(join("/tmp", `codex-daemon-${process.getuid?.() ?? 0}`));
      } catch {
        // not there, or in use
      }
      await fake.close();
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** `toolgate <args>` in the world's project with its environment (only that environment: nothing from $HOME). */
export function toolgateIn(world: CodexWorld, args: string[], extra: Record<string, string> = {}) {
  return runToolgate({ args, cwd: world.project, env: { ...world.env, ...extra } });
}

/** `codex exec` flags that keep a run offline and non-interactive. */
export const OFFLINE_FLAGS = [
  "--skip-git-repo-check",
  "--disable",
  "plugins",
  "--disable",
  "remote_plugin",
  "--disable",
  "apps",
];

export interface CodexRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `codex exec` (through `toolgate run` when `viaToolgateRun`), stdin closed, with a hard timeout. */
export async function runCodex(
  world: CodexWorld,
  options: { prompt?: string; viaToolgateRun?: boolean; extraArgs?: string[]; env?: Record<string, string> } = {},
): Promise<CodexRun> {
  const codexArgs = [
    CODEX_BIN,
    "exec",
    ...OFFLINE_FLAGS,
    ...(options.extraArgs ?? []),
    options.prompt ?? "Delete the victim dir",
  ];
  const argv = options.viaToolgateRun === true ? [...toolgateCommand("run", "--"), ...codexArgs] : codexArgs;
  const [program, ...args] = argv as [string, ...string[]];
  const child = spawn(program, args, {
    cwd: world.project,
    env: { ...world.env, ...options.env },
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
  }, 150_000);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  return { exitCode, stdout, stderr, timedOut };
}

/** The session id Codex printed (`session id: ...` on stderr). */
export function sessionIdOf(run: CodexRun): string {
  const match = /session id: ([0-9a-f-]{36})/.exec(run.stderr);
  if (match === null) throw new Error(`no session id in Codex's output:\n${run.stderr.slice(0, 2000)}`);
  return match[1] as string;
}

/** The denial records of a session, read through the CLI (`toolgate tail --json --no-follow`). */
export function recordsOf(world: CodexWorld, sessionId: string): Record<string, unknown>[] {
  const result = toolgateIn(world, ["tail", "--json", "--no-follow", "--lines", "1000", "--session", sessionId]);
  if (result.exitCode !== 0) throw new Error(`toolgate tail failed: ${result.stderr}`);
  return result.stdout
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** The rollout file of a session. */
export function rolloutOf(world: CodexWorld, sessionId: string): string {
  const find = (directory: string): string | undefined => {
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) {
        const found = find(path);
        if (found !== undefined) return found;
      } else if (entry.name.endsWith(`${sessionId}.jsonl`)) return path;
    }
    return undefined;
  };
  const path = find(join(world.codexHome, "sessions"));
  if (path === undefined) throw new Error(`no rollout for ${sessionId}`);
  return readFileSync(path, "utf8");
}
