import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { HostStreamParser, HostStreamSummary } from "../../hosts/common/host-stream.js";
import { hostStreams } from "./host-streams.js";
import { signalTree } from "./kill-tree.js";
import { LineSplitter } from "./line-splitter.js";

export interface AgentRun {
  exitCode: number;
  signal: NodeJS.Signals | null;
  stream: HostStreamSummary | undefined;
  /** why `run` ended the agent itself (toolgate aborted a session of the run), when it did */
  stopped?: string;
}

/** How long an agent gets to exit after SIGTERM before SIGKILL, once toolgate aborted the run. */
export const STOP_GRACE_MS = 5_000;
const STOP_POLL_MS = 200;

/**
 * Runs an agent command with the terminal's stdin and stderr, passes its stdout through unchanged, and feeds each
 * stdout line to the parser of the host that wrote it (when one recognises the command).
 */
export async function runAgent(options: {
  command: readonly string[];
  environment?: NodeJS.ProcessEnv;
  output?: NodeJS.WritableStream;
  /**
   * polled while the agent runs: a reason ends the agent (SIGTERM, then SIGKILL after `stopGraceMs`). The backstop
   * for every host, and the only stop for a host whose own answers cannot end its run.
   */
  stopWhen?: () => string | undefined;
  stopGraceMs?: number;
}): Promise<AgentRun> {
  const [program, ...args] = options.command;
  if (program === undefined) throw new Error("no command to run");
  const detector = (await hostStreams()).find((candidate) => candidate.detect(options.command));
  const parser: HostStreamParser | undefined = detector?.create();
  const output = options.output ?? process.stdout;
  const child = spawn(program, args, {
    stdio: ["inherit", "pipe", "inherit"],
    env: { ...process.env, ...options.environment },
  });
  const lines = parser === undefined ? undefined : new LineSplitter((line) => parser.push(line));
  // a reader that stops early (`toolgate run -- agent | head`) closes our stdout: stop passing output through and
  // end the agent the way the closed pipe would have (SIGTERM), so it is not left running unwatched. Registered
  // before the CLI's own closed-pipe handler, which then ends toolgate quietly.
  let outputClosed = false;
  const onOutputError = (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE" && error.code !== "ERR_STREAM_DESTROYED") return;
    outputClosed = true;
    child.kill("SIGTERM");
  };
  output.prependListener("error", onOutputError);
  child.stdout.on("data", (chunk: Buffer) => {
    if (!outputClosed) output.write(chunk);
    lines?.push(chunk);
  });
  const forward = (signal: NodeJS.Signals) => () => signalTree(child, signal);
  const onInterrupt = forward("SIGINT");
  const onTerminate = forward("SIGTERM");
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  let stopped: string | undefined;
  let killTimer: NodeJS.Timeout | undefined;
  const stopWhen = options.stopWhen;
  const poll =
    stopWhen === undefined
      ? undefined
      : setInterval(() => {
          if (stopped !== undefined) return;
          stopped = stopWhen();
          if (stopped === undefined) return;
          // the whole tree: a loader that does not forward signals must not leave the agent running
          signalTree(child, "SIGTERM");
          killTimer = setTimeout(() => signalTree(child, "SIGKILL"), options.stopGraceMs ?? STOP_GRACE_MS);
          killTimer.unref();
        }, STOP_POLL_MS);
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    lines?.end();
    const signalNumber = signal === null ? undefined : constants.signals[signal];
    return {
      exitCode: code ?? (signalNumber === undefined ? 1 : 128 + signalNumber),
      signal,
      stream: parser?.summary(),
      ...(stopped === undefined ? {} : { stopped }),
    };
  } finally {
    if (poll !== undefined) clearInterval(poll);
    if (killTimer !== undefined) clearTimeout(killTimer);
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
    output.off("error", onOutputError);
  }
}
