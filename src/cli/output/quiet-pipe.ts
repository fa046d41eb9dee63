/**
 * A reader that stops early (`toolgate tail --json | head -1`) closes the pipe; the next write fails with EPIPE.
 * The command then ends quietly: no message, no stack trace, and the exit code the command had already set
 * (0 when it had set none), the way a shell pipeline expects a producer to stop when its reader is done. A closed
 * stderr is ignored (there is nowhere left to report). Any other stream error still fails the command.
 */
export function endQuietlyOnClosedPipe(options: {
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
  exit: (code: number) => void;
}): void {
  const isClosedPipe = (error: NodeJS.ErrnoException) =>
    error.code === "EPIPE" || error.code === "ERR_STREAM_DESTROYED";
  options.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (!isClosedPipe(error)) throw error;
    options.exit(typeof process.exitCode === "number" ? process.exitCode : 0);
  });
  options.stderr.on("error", (error: NodeJS.ErrnoException) => {
    if (!isClosedPipe(error)) throw error;
  });
}
