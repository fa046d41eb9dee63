import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { temporaryDirectory } from "../../support/temporary-directory.js";
import type { FakeOpenAI } from "../opencode/fake-openai.js";

/**
 * Runs the real `cline` 3.0.65 once against the scripted model, offline: a fresh HOME, the provider set with
 * `cline auth -p openai-compatible ... -b http://127.0.0.1:<port>/v1`, `CLINE_SESSION_BACKEND_MODE=local` (no
 * detached hub daemon: nothing outlives the run), stdin closed, and a timeout. `--retries` raises Cline's own
 * mistake limit (3 failed calls in a row end a run) so that what stops a stubborn model is toolgate's threshold.
 */

export const TOOLGATE_CLI = resolve("dist/cli/main.js");

/** The platform binary `cline` ships (`@cline/cli-<platform>-<arch>/bin/cline`), resolved from the `cline` package. */
export function clineBinary(): string {
  const require = createRequire(createRequire(import.meta.url).resolve("cline/package.json"));
  const name = `@cline/cli-${process.platform}-${process.arch}`;
  const file = join(dirname(require.resolve(`${name}/package.json`)), "bin", "cline");
  if (!existsSync(file)) throw new Error(`No Cline binary at ${file}: run \`npm ci\` in test/e2e.`);
  return file;
}

export interface ClineProject {
  root: string;
  home: string;
  projectDir: string;
  database: string;
}

export function clineEnvironment(project: ClineProject, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const tmp = join(project.root, "tmp");
  mkdirSync(tmp, { recursive: true });
  return {
    PATH: process.env.PATH,
    HOME: project.home,
    TMPDIR: tmp,
    CLINE_SESSION_BACKEND_MODE: "local",
    TOOLGATE_DB: project.database,
    NO_COLOR: "1",
    ...extra,
  };
}

/** A project directory and a HOME with Cline's provider pointed at the scripted model. */
export function clineProject(options: { fake: FakeOpenAI; files?: Record<string, string>; toolgateConfig?: unknown }) {
  const root = temporaryDirectory("toolgate-cline-");
  const project: ClineProject = {
    root,
    home: join(root, "home"),
    projectDir: join(root, "project"),
    database: join(root, "toolgate.db"),
  };
  mkdirSync(project.home, { recursive: true });
  mkdirSync(project.projectDir, { recursive: true });
  for (const [path, content] of Object.entries(options.files ?? {})) {
    mkdirSync(dirname(join(project.projectDir, path)), { recursive: true });
    writeFileSync(join(project.projectDir, path), content);
  }
  if (options.toolgateConfig !== undefined) {
    writeFileSync(join(project.projectDir, "toolgate.config.json"), JSON.stringify(options.toolgateConfig, null, 2));
  }
  const auth = spawnSync(
    clineBinary(),
    ["auth", "-p", "openai-compatible", "-k", "sk-scripted", "-m", "fake-model", "-b", options.fake.baseUrl],
    { cwd: project.projectDir, env: clineEnvironment(project), encoding: "utf8", timeout: 60_000, stdio: "pipe" },
  );
  if (auth.status !== 0) throw new Error(`cline auth failed (${auth.status}): ${auth.stdout}${auth.stderr}`);
  return project;
}

/** `toolgate install cline --project` (or `--user`) in the project, with the project's HOME. */
export function installToolgate(project: ClineProject, scope: "--project" | "--user" = "--project") {
  return spawnSync(process.execPath, [TOOLGATE_CLI, "install", "cline", scope], {
    cwd: project.projectDir,
    env: clineEnvironment(project),
    encoding: "utf8",
    timeout: 60_000,
  });
}

export interface ClineRunResult {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
}

/** `cline --json --retries 20 "<prompt>"`, or `toolgate run -- cline ...` with `underToolgateRun`. */
export async function runCline(
  project: ClineProject,
  options: {
    prompt: string;
    underToolgateRun?: boolean;
    timeoutMs?: number;
    env?: Record<string, string>;
    /** more `cline` options before the prompt */
    args?: string[];
  },
): Promise<ClineRunResult> {
  const cline = [clineBinary(), "--json", "--retries", "20", ...(options.args ?? []), options.prompt];
  const command = options.underToolgateRun ? [process.execPath, TOOLGATE_CLI, "run", "--", ...cline] : cline;
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: project.projectDir,
    env: clineEnvironment(project, options.env),
    stdio: ["ignore", "pipe", "pipe"],
  });
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
  }, options.timeoutMs ?? 180_000);
  const exitCode = await new Promise<number | null>((resolveExit) => child.on("close", resolveExit));
  clearTimeout(timer);
  return { exitCode, timedOut, stdout, stderr };
}

/** Cline's session files under the project's HOME (`~/.cline/data/sessions/<id>/<id>.messages.json`). */
export function clineSessionFiles(project: ClineProject): string[] {
  const directory = join(project.home, ".cline", "data", "sessions");
  if (!existsSync(directory)) return [];
  return readdirSync(directory)
    .map((id) => join(directory, id, `${id}.messages.json`))
    .filter((file) => existsSync(file));
}

/** Processes still running whose command line or environment names this project's folder (none may outlive a test). */
export function processesOf(project: ClineProject): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (environ.includes(project.root) || cmdline.includes(project.root))
        found.push(`${pid}: ${cmdline.replaceAll("\0", " ")}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}
