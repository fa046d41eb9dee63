/**
 * Runs the real Claude Code binary (the one `@anthropic-ai/claude-agent-sdk` installs) headless against a fake
 * Messages API: `-p <prompt> --output-format stream-json --verbose`, a temporary HOME and project directory, stdin
 * closed, an environment with nothing but what the run needs (no telemetry, no error reporting, no updater, no
 * non-essential traffic), and a hard timeout. Only the process started here is ever killed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The native Claude Code executable shipped as the SDK's platform optional dependency. */
export function claudeBinary(): string {
  const base = `@anthropic-ai/claude-agent-sdk-${process.platform}-${process.arch}`;
  try {
    return require.resolve(`${base}/claude`);
  } catch {
    return require.resolve(`${base}-musl/claude`);
  }
}

export interface Workspace {
  root: string;
  home: string;
  project: string;
  /** write `<project>/.claude/settings.json` */
  writeProjectSettings(settings: unknown): void;
  writeFile(relativePath: string, text: string): string;
  /** mark the project trusted in `$HOME/.claude.json` so project `permissions.allow` entries apply */
  trustProject(): void;
  remove(): void;
}

export function createWorkspace(prefix = "toolgate-claude-e2e-"): Workspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const home = join(root, "home");
  const project = join(root, "project");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  return {
    root,
    home,
    project,
    writeProjectSettings(settings) {
      writeFileSync(join(project, ".claude", "settings.json"), `${JSON.stringify(settings, null, 2)}\n`);
    },
    writeFile(relativePath, text) {
      const path = join(project, relativePath);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      return path;
    },
    trustProject() {
      const config = { projects: { [project]: { hasTrustDialogAccepted: true } } };
      writeFileSync(join(home, ".claude.json"), JSON.stringify(config));
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The environment for an offline run: loopback API, dummy key, every optional network feature off. */
/** `<home>/.tmp`, made when missing: a workspace's own temporary directory. */
export function workspaceTemporary(home: string): string {
  const directory = join(home, ".tmp");
  mkdirSync(directory, { recursive: true });
  return directory;
}

export function offlineEnvironment(options: { baseUrl: string; home: string }): Record<string, string> {
  return {
    PATH: `${dirname(process.execPath)}:/usr/bin:/bin`,
    // a temporary directory inside the workspace, removed with it: Claude Code's own files (cc-socks, claude-0) and
    // `toolgate run`'s folder go there, never where another test run on this machine may clean
    TMPDIR: workspaceTemporary(options.home),
    HOME: options.home,
    TERM: "dumb",
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: "dummy",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_NON_ESSENTIAL_MODEL_CALLS: "1",
  };
}

export interface ClaudeRunOptions {
  workspace: Workspace;
  baseUrl: string;
  prompt: string;
  maxTurns?: number;
  /** extra CLI arguments (`--permission-mode`, `--disallowedTools`, ...) */
  args?: string[];
  /** extra environment variables */
  env?: Record<string, string>;
  /** a command that wraps the binary, e.g. `[node, main.js, "run", "--"]` */
  wrapper?: string[];
  timeoutMs?: number;
}

export interface ClaudeRunResult {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** every stream-json line that parsed */
  messages: Record<string, unknown>[];
  /** the final `type: "result"` message, when there was one */
  result: Record<string, unknown> | undefined;
}

export function parseStreamJson(stdout: string): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  for (const line of stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      messages.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a partial or non-JSON line is not a message
    }
  }
  return messages;
}

export async function runClaude(options: ClaudeRunOptions): Promise<ClaudeRunResult> {
  const claudeArgs = [
    "-p",
    options.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--max-turns",
    String(options.maxTurns ?? 40),
    ...(options.args ?? []),
  ];
  const wrapper = options.wrapper ?? [];
  const [command, ...args] = [...wrapper, claudeBinary(), ...claudeArgs] as [string, ...string[]];
  const child = spawn(command, args, {
    cwd: options.workspace.project,
    env: { ...offlineEnvironment({ baseUrl: options.baseUrl, home: options.workspace.home }), ...options.env },
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
  }, options.timeoutMs ?? 90_000);
  const [exitCode, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code, closeSignal) => resolve([code, closeSignal]));
  }).finally(() => clearTimeout(timer));
  const messages = parseStreamJson(stdout);
  const result = messages.findLast((message) => message.type === "result");
  return { exitCode, signal, timedOut, stdout, stderr, messages, result };
}
