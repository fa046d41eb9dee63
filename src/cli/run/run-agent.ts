import { spawn } from "node:child_process";
import { constants } from "node:os";
import type { HostStreamParser, HostStreamSummary } from "../../adapters/host-stream.js";
import { HOST_STREAMS } from "./host-streams.js";

export interface AgentRun {
  exitCode: number;
  signal: NodeJS.Signals | null;
  stream: HostStreamSummary | undefined;
}

/**
 * Runs an agent command with the terminal's stdin and stderr, passes its stdout through unchanged, and feeds each
 * stdout line to the parser of the host that wrote it (when one recognises the command).
 */
export async function runAgent(options: {
  command: readonly string[];
  environment?: NodeJS.ProcessEnv;
  output?: NodeJS.WritableStream;
}): Promise<AgentRun> {
  const [program, ...args] = options.command;
  if (program === undefined) throw new Error("no command to run");
  const detector = HOST_STREAMS.find((candidate) => candidate.detect(options.command));
  const parser: HostStreamParser | undefined = detector?.create();
  const output = options.output ?? process.stdout;
  const child = spawn(program, args, {
    stdio: ["inherit", "pipe", "inherit"],
    env: { ...process.env, ...options.environment },
  });
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output.write(chunk);
    if (parser === undefined) return;
    pending += chunk.toString("utf8");
    const lines = pending.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) parser.push(line);
  });
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal);
  const onInterrupt = forward("SIGINT");
  const onTerminate = forward("SIGTERM");
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onTerminate);
  try {
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve, reject) => {
      child.once("error", reject);
      child.once("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal]));
    });
    if (parser !== undefined && pending !== "") parser.push(pending);
    const signalNumber = signal === null ? undefined : constants.signals[signal];
    return {
      exitCode: code ?? (signalNumber === undefined ? 1 : 128 + signalNumber),
      signal,
      stream: parser?.summary(),
    };
  } finally {
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onTerminate);
  }
}
