import { spawn } from "node:child_process";

/** Runs one host binary to completion with stdin closed and a hard timeout; kills only the process it started. */
export async function runHost(options: {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  timeoutMs?: number;
}): Promise<{ exitCode: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: options.env,
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
  }, options.timeoutMs ?? 120_000);
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve(code));
  }).finally(() => clearTimeout(timer));
  return { exitCode, stdout, stderr, timedOut };
}

/** PATH, locale and temp dir from this process; nothing else leaks into a recorded host's environment. */
export function baseEnvironment(home: string): Record<string, string> {
  const environment: Record<string, string> = { HOME: home, TERM: "dumb", NO_COLOR: "1" };
  for (const name of ["PATH", "LANG", "TZ", "TMPDIR"]) {
    const value = process.env[name];
    if (value !== undefined) environment[name] = value;
  }
  return environment;
}
