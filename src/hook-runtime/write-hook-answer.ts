import { writeSync } from "node:fs";
import type { HookAnswer } from "../hosts/common/hook-host.js";

/**
 * Writes a hook's answer at once, synchronously: the JSON line on stdout, the text on stderr. A host that already
 * closed the pipe (EPIPE) gets nothing, quietly; a full non-blocking pipe (EAGAIN) is retried.
 */
export function writeHookAnswer(answer: HookAnswer, descriptors: { stdout: number; stderr: number }): void {
  if (answer.output !== undefined) writeAll(descriptors.stdout, `${JSON.stringify(answer.output)}\n`);
  if (answer.stderr !== undefined) writeAll(descriptors.stderr, `${answer.stderr}\n`);
}

/** Writes every byte of `text` to a descriptor; stops quietly when the reader is gone. */
export function writeAll(descriptor: number, text: string): void {
  const bytes = Buffer.from(text, "utf8");
  let written = 0;
  let tries = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(descriptor, bytes, written, bytes.length - written);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "EAGAIN" && tries++ < 1_000) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
        continue;
      }
      if (code === "EPIPE" || code === "EAGAIN" || code === "EBADF") return;
      throw error;
    }
  }
}
