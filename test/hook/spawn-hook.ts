/**
 * Runs a hook command the way a host does (event on stdin, answer on stdout, exit code) and notes when the first
 * answer line arrived and when the process exited, for the hook entry tests. The built toolgate runs from the
 * Claude end-to-end tests' private snapshot of dist/ (test/e2e/claude/toolgate-cli.ts).
 */
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { toolgateCommand } from "../e2e/claude/toolgate-cli.js";

/** `[node, <snapshot>/dist/hook/toolgate-hook.cjs]`: the bundled hook entry installers write. */
export function hookEntryCommand(): string[] {
  const [node, main] = toolgateCommand();
  return [node!, join(dirname(dirname(main!)), "hook", "toolgate-hook.cjs")];
}

/** `[node, <snapshot>/dist/cli/main.js]`. */
export function cliCommand(): string[] {
  return toolgateCommand();
}

export interface HookRun {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  /** ms from spawn to the first complete line on stdout (undefined: none) */
  answeredAfterMs: number | undefined;
  /** ms from spawn to the process's exit */
  exitedAfterMs: number;
}

export async function spawnHook(options: {
  argv: string[];
  input: string;
  cwd: string;
  env: Record<string, string | undefined>;
}): Promise<HookRun> {
  const started = Date.now();
  const [command, ...args] = options.argv;
  const child = spawn(command!, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv });
  let stdout = "";
  let stderr = "";
  let answeredAfterMs: number | undefined;
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    if (answeredAfterMs === undefined && stdout.includes("\n")) answeredAfterMs = Date.now() - started;
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString("utf8");
  });
  child.stdin.end(options.input);
  const exitCode = await new Promise<number | null>((resolve) => child.on("close", (code) => resolve(code)));
  return { stdout, stderr, exitCode, answeredAfterMs, exitedAfterMs: Date.now() - started };
}
