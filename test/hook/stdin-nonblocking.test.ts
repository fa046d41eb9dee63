/**
 * The hook reads its event from a stdin left non-blocking (O_NONBLOCK, as a parent that shares its pipe may leave
 * it), with the event arriving in pieces after the read started: EAGAIN is waited out, nothing is lost or read twice.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { assertBuilt } from "../e2e/claude/toolgate-cli.js";

const REPOSITORY = join(import.meta.dirname, "..", "..");
const root = mkdtempSync(join(tmpdir(), "toolgate-stdin-nonblocking-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("readHookStdin on a non-blocking pipe", () => {
  it.each([
    ["the read starts first", 0],
    // the first piece already waits in the pipe when the read starts, the rest comes later: readFileSync read it,
    // then threw EAGAIN and lost it (seen under load in CI)
    ["a piece already waits when the read starts", 300],
  ])("waits for pieces that arrive late and returns them whole (%s)", { timeout: 30_000 }, (_label, readerDelayMs) => {
    assertBuilt();
    const pieces = ['{"hook_event_name":"Pre', 'ToolUse","prompt":"', "ü€".repeat(40_000), '"}'];
    // the writer: one piece every 60 ms into a real pipe (the shell's |)
    const writer = join(root, "writer.mjs");
    writeFileSync(
      writer,
      `const pieces = ${JSON.stringify(pieces)};
for (const [index, piece] of pieces.entries()) {
  await new Promise((resolve) => setTimeout(resolve, index === 0 ? 0 : ${readerDelayMs} + 60));
  process.stdout.write(piece);
}`,
    );
    // the reader: the pipe opened again through /proc with O_NONBLOCK, so reads fail with EAGAIN until a piece comes
    const reader = join(root, "reader.mjs");
    const module = pathToFileURL(join(REPOSITORY, "dist", "hook-runtime", "read-hook-stdin.js")).href;
    writeFileSync(
      reader,
      `import { constants, openSync } from "node:fs";
const { readHookStdin } = await import(${JSON.stringify(module)});
const descriptor = openSync("/proc/self/fd/0", constants.O_RDONLY | constants.O_NONBLOCK);
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ${readerDelayMs});
process.stdout.write(JSON.stringify(readHookStdin(descriptor)));`,
    );
    const node = JSON.stringify(process.execPath);
    const result = spawnSync(
      "/bin/sh",
      ["-c", `${node} ${JSON.stringify(writer)} | ${node} ${JSON.stringify(reader)}`],
      {
        encoding: "utf8",
      },
    );
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toBe(pieces.join(""));
  });
});
