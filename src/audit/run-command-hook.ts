import { spawn } from "node:child_process";
import { boundedBuffer } from "./bounded-buffer.js";

export interface HookRunResult {
  ok: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
  /** why it failed, in one line (spawn error, exit code, timeout) */
  error?: string;
}

/**
 * Process groups of command hooks still running in this process. A process that exits first (a hook process ends
 * after its drain budget) kills them on the way out, so a hook that hangs never outlives it as an orphan; the
 * delivery itself stays in the hook spool and is retried (hook-dispatcher).
 */
const running = new Set<() => void>();
let killsOnExit = false;

/**
 * Runs a command hook: `sh -c command` with the payload as one JSON line on stdin and TOOLGATE_HOOK_EVENT /
 * TOOLGATE_HOOK_TOOL in the environment. The child runs in its own process group, which is killed (SIGTERM, then
 * SIGKILL after a grace period) when the timeout passes, and with SIGKILL when this process exits first. stdout/stderr are captured up to `maxOutputBytes` each.
 * Never throws.
 */
export function runCommandHook(options: {
  command: string;
  payload: unknown;
  event: string;
  tool?: string;
  timeoutMs: number;
  maxOutputBytes?: number;
  env?: Record<string, string | undefined>;
}): Promise<HookRunResult> {
  const started = Date.now();
  const limit = options.maxOutputBytes ?? 64 * 1024;
  const stdout = boundedBuffer(limit);
  const stderr = boundedBuffer(limit);
  return new Promise((resolve) => {
    let timedOut = false;
    let settled = false;
    const child = spawn("sh", ["-c", options.command], {
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: {
        ...process.env,
        ...options.env,
        TOOLGATE_HOOK_EVENT: options.event,
        TOOLGATE_HOOK_TOOL: options.tool ?? "",
      },
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      } catch {
        child.kill(signal);
      }
    };
    const killOnExit = () => killGroup("SIGKILL");
    running.add(killOnExit);
    if (!killsOnExit) {
      killsOnExit = true;
      process.on("exit", () => {
        for (const kill of running) kill();
      });
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      setTimeout(() => killGroup("SIGKILL"), 1_000).unref();
    }, options.timeoutMs);
    const finish = (result: Omit<HookRunResult, "stdout" | "stderr" | "durationMs" | "timedOut">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      running.delete(killOnExit);
      resolve({
        ...result,
        timedOut,
        stdout: stdout.text(),
        stderr: stderr.text(),
        durationMs: Date.now() - started,
        ...(timedOut ? { ok: false, error: `hook timed out after ${options.timeoutMs} ms and was killed` } : {}),
      });
    };
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", (error) => finish({ ok: false, exitCode: null, signal: null, error: error.message }));
    child.on("close", (exitCode, signal) =>
      finish({
        ok: exitCode === 0,
        exitCode,
        signal,
        ...(exitCode === 0 ? {} : { error: `hook exited with ${exitCode ?? signal}` }),
      }),
    );
    // A hook that does not read stdin must not fail the write (EPIPE).
    child.stdin.on("error", () => undefined);
    child.stdin.end(`${JSON.stringify(options.payload)}\n`);
  });
}
