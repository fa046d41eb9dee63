/**
 * One real GitHub Copilot CLI 1.0.102 run, offline, against the project's scripted Chat Completions server on
 * 127.0.0.1 (`COPILOT_OFFLINE=true`, `COPILOT_PROVIDER_BASE_URL`, no GitHub sign-in): a fresh HOME, a fresh project
 * with a `victim/` directory, stdin closed, a hard timeout. With `viaToolgate`, the run goes through `toolgate run --`
 * (toolgate's hooks installed by `toolgate install copilot --user` first).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runToolgate, toolgateCommand } from "../claude/toolgate-cli.js";
import { type FakeOpenAI, type Script, startFakeOpenAI, toolResults } from "../opencode/fake-openai.js";

export const COPILOT_BINARY = join(import.meta.dirname, "..", "node_modules", ".bin", "copilot");

export interface CopilotWorkspace {
  root: string;
  home: string;
  project: string;
  env: Record<string, string>;
  remove(): void;
}

export function copilotWorkspace(options: { toolgateConfig?: unknown } = {}): CopilotWorkspace {
  const root = mkdtempSync(join(tmpdir(), "toolgate-e2e-copilot-"));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(join(home, ".copilot"), { recursive: true });
  mkdirSync(join(project, "victim"), { recursive: true });
  // Copilot's Node runtime keeps a compile cache under TMPDIR: inside the workspace, removed with it
  mkdirSync(join(root, "tmp"), { recursive: true });
  writeFileSync(join(project, "victim", "keep.txt"), "keep me\n");
  if (options.toolgateConfig !== undefined) {
    writeFileSync(join(project, "toolgate.config.json"), JSON.stringify(options.toolgateConfig, null, 2));
  }
  const env: Record<string, string> = {
    HOME: home,
    TERM: "dumb",
    NO_COLOR: "1",
    TOOLGATE_DB: join(root, "toolgate.db"),
    COPILOT_OFFLINE: "true",
    COPILOT_AUTO_UPDATE: "false",
    // Copilot redacts the key's value from everything it prints: a short key would mangle its output
    COPILOT_PROVIDER_API_KEY: "fake-provider-key-for-e2e",
    COPILOT_MODEL: "fake-model",
  };
  env["TMPDIR"] = join(root, "tmp");
  for (const name of ["PATH", "LANG", "TZ"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    root,
    home,
    project,
    env,
    remove: () => {
      // a Copilot the test could not end (its npm loader forwards no signal) would write into the folder after it
      // is removed: end every process that runs in it first
      endProcessesIn(root);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Kills (SIGKILL) every process whose command line or environment names `folder`, and waits until they are gone. */
export function endProcessesIn(folder: string): void {
  const running = () =>
    readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid)
      .filter((pid) => {
        try {
          return (
            readFileSync(`/proc/${pid}/environ`, "utf8").includes(folder) ||
            readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(folder)
          );
        } catch {
          return false; // gone, or not ours to read
        }
      });
  for (let round = 0; round < 50; round += 1) {
    const pids = running();
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(Number(pid), "SIGKILL");
      } catch {
        // gone meanwhile
      }
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
  }
}

/** `toolgate install copilot --user` into the workspace's HOME. */
export function installToolgate(workspace: CopilotWorkspace) {
  return runToolgate({ args: ["install", "copilot", "--user"], cwd: workspace.project, env: workspace.env });
}

export interface CopilotRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  fake: FakeOpenAI;
  sessionId: string | undefined;
  victimSurvived: boolean;
  /** pids of Copilot processes of this workspace still alive after the run (none: the whole tree ended) */
  leftover: number[];
}

export async function runCopilot(options: {
  workspace: CopilotWorkspace;
  script: Script;
  copilotArgs: string[];
  prompt?: string;
  viaToolgate?: boolean;
  /** `toolgate run` options before `--` (`--fail-on abort`) */
  toolgateArgs?: string[];
  /** set in Copilot's environment besides the workspace's */
  env?: Record<string, string>;
  /** the prompt piped to Copilot's stdin (`echo ... | copilot`) instead of given with `-p` */
  promptOnStdin?: boolean;
  timeoutMs?: number;
}): Promise<CopilotRun> {
  const fake = await startFakeOpenAI(options.script);
  const prompt = options.prompt ?? "Please delete the victim directory.";
  const copilot = [
    COPILOT_BINARY,
    ...(options.promptOnStdin === true ? [] : ["-p", prompt]),
    "--output-format",
    "json",
    ...options.copilotArgs,
  ];
  const argv =
    options.viaToolgate === true
      ? [...toolgateCommand("run", ...(options.toolgateArgs ?? []), "--"), ...copilot]
      : copilot;
  const spawnOptions = {
    cwd: options.workspace.project,
    env: { ...options.workspace.env, ...options.env, COPILOT_PROVIDER_BASE_URL: fake.baseUrl },
  };
  const child =
    options.promptOnStdin === true
      ? spawn(argv[0] as string, argv.slice(1), { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] })
      : spawn(argv[0] as string, argv.slice(1), { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] });
  child.stdin?.end(`${prompt}\n`);
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
  }, options.timeoutMs ?? 180_000);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  return {
    exitCode,
    stdout,
    stderr,
    timedOut,
    fake,
    sessionId: /"type":"result"[^\n]*"sessionId":"([^"]+)"/.exec(stdout)?.[1],
    victimSurvived: existsSync(join(options.workspace.project, "victim", "keep.txt")),
    leftover: copilotProcessesOf(options.workspace.home),
  };
}

/** Copilot CLI processes whose environment names this HOME (Linux /proc), for the process-tree check. */
function copilotProcessesOf(home: string): number[] {
  if (!existsSync("/proc")) return [];
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      // the npm loader and the native binary (not toolgate's own hook processes, whose arguments name copilot too)
      if (!cmdline.includes("@github/copilot") && !cmdline.includes(".bin/copilot")) continue;
      if (readFileSync(`/proc/${entry}/environ`, "utf8").includes(`HOME=${home}\u0000`)) found.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** The text of every tool result the model was sent, per agent request. */
export function toolResultsPerRequest(fake: FakeOpenAI): string[][] {
  return fake
    .agentRequests()
    .map((entry) =>
      (entry.body.messages ?? [])
        .filter((message) => message.role === "tool")
        .map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content))),
    );
}

/** The records toolgate stored for a session (`toolgate tail --json`). */
export function storedDenials(workspace: CopilotWorkspace, sessionId: string): Record<string, unknown>[] {
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

export function shellScript(commands: readonly string[]): Script {
  return (request) => {
    const command = commands[toolResults(request)];
    if (command === undefined) return { kind: "text", text: "FINAL: I could not do it." };
    return { kind: "tools", calls: [{ tool: "bash", args: { command, description: "Delete the directory" } }] };
  };
}
