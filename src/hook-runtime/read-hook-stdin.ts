import { fstatSync, readSync } from "node:fs";

/**
 * The hook event on stdin, read synchronously (no stream, no event-loop turns): "" when stdin is closed, empty, or a
 * character device (a terminal, /dev/null, or /dev/zero, which would never end; checked with fstat, without loading
 * node:tty). One read loop serves a blocking and a non-blocking stdin (EAGAIN: a parent left O_NONBLOCK on the
 * pipe): it waits briefly between tries and keeps every byte already read. (`readFileSync` on such a pipe reads the
 * pieces already there, then throws EAGAIN and loses them: under load the event's first piece was gone.)
 */
export function readHookStdin(descriptor = 0): string {
  try {
    if (fstatSync(descriptor).isCharacterDevice()) return "";
  } catch (error) {
    if (unreadable(error)) return "";
    throw error;
  }
  return readAll(descriptor);
}

function unreadable(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === "EBADF" || code === "EINVAL";
}

function readAll(descriptor: number): string {
  const chunks: Buffer[] = [];
  const buffer = Buffer.allocUnsafe(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let count: number;
    try {
      count = readSync(descriptor, buffer, 0, buffer.length, null);
    } catch (error) {
      if (chunks.length === 0 && unreadable(error)) return "";
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (count === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, count)));
  }
  return Buffer.concat(chunks).toString("utf8");
}
