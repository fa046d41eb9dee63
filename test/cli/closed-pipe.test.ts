import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt, makeFixture } from "./cli-fixture.js";
import { seedStore } from "./seed-store.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Spawns the built CLI, reads its first stdout line, closes the pipe, and waits for the process to end. */
function firstLineThenClose(args: string[], env: Record<string, string>, cwd: string) {
  return new Promise<{ line: string; code: number | null; signal: NodeJS.Signals | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, [cliPath, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
      let buffered = "";
      let line: string | undefined;
      let stderr = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        if (line !== undefined) return;
        buffered += chunk;
        const end = buffered.indexOf("\n");
        if (end === -1) return;
        line = buffered.slice(0, end);
        child.stdout.destroy(); // what `| head -1` does: the reader is gone, the next write gets EPIPE
      });
      child.on("error", reject);
      child.on("close", (code, signal) => resolve({ line: line ?? "", code, signal, stderr }));
    },
  );
}

describe("a closed stdout pipe", () => {
  it("ends `tail --no-follow --json` quietly: exit 0, nothing on stderr (| head -1)", async () => {
    const fixture = makeFixture({});
    roots.push(fixture.root);
    // far more than a pipe buffer holds, so writes continue after the reader has gone
    const db = await seedStore({ home: fixture.home, count: 3000 });
    const env = { PATH: process.env.PATH ?? "", TMPDIR: tmpdir(), HOME: fixture.home, TOOLGATE_DB: db };
    const result = await firstLineThenClose(["tail", "--no-follow", "--json", "--lines", "3000"], env, fixture.project);
    expect(JSON.parse(result.line)).toMatchObject({ tool: "Bash", seq: 1 });
    expect(result.stderr).toBe("");
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
  });

  it("ends `redact big.jsonl` quietly, without a summary of output nobody read (| head -1)", async () => {
    const fixture = makeFixture({
      // far more than a pipe buffer holds, and no secret in it: the old summary said "no secrets found"
      "project/big.jsonl": `${Array.from({ length: 20_000 }, (_, index) => JSON.stringify({ line: index, text: "x".repeat(40) })).join("\n")}\n`,
    });
    roots.push(fixture.root);
    const env = { PATH: process.env.PATH ?? "", TMPDIR: tmpdir(), HOME: fixture.home };
    const result = await firstLineThenClose(["redact", "big.jsonl"], env, fixture.project);
    expect(JSON.parse(result.line)).toMatchObject({ line: 0 });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });
});
