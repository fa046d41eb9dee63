import { fstatSync, readFileSync, readSync } from "node:fs";

/**
 * The hook event on stdin, read in one synchronous call (no stream, no event-loop turns): "" when stdin is closed,
 * empty, or a character device (a terminal, /dev/null, or /dev/zero, which would never end; checked with fstat,
 * without loading node:tty). A non-blocking stdin (EAGAIN: a parent left O_NONBLOCK on the pipe) is read in a loop
 * that waits briefly between tries instead of failing.
 */
export function readHookStdin(descriptor = 0): string {
  try {
    if (fstatSync(descriptor).isCharacterDevice()) return "";
    return readFileSync(descriptor, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EBADF" || code === "EINVAL") return "";
    if (code !== "EAGAIN") throw error;
    return readNonBlocking(descriptor);
  }
}

function readNonBlocking(descriptor: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let count: number;
    try {
      count = readSync(descriptor, buffer, 0, buffer.length, null);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (count === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
  return Buffer.concat(chunks).toString("utf8");
}
