import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cliPath, ensureBuilt } from "./cli-fixture.js";

beforeAll(ensureBuilt);

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("toolgate run with a reader that stops early (| head -c 10)", () => {
  it("ends quietly and does not leave the agent running unwatched", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-run-pipe-"));
    roots.push(root);
    const pidFile = join(root, "agent.pid");
    // the agent writes far more than a pipe buffer holds, then goes quiet (a real agent thinking): before, toolgate
    // died of EPIPE (a stack trace) or exited and left the agent running with nobody reading it
    const script = `echo $$ > '${pidFile}'; yes | head -c 1000000; exec sleep 30`;
    // toolgate's own temporary folder goes here, so the test sees whether it is removed
    const temporary = join(root, "tmp");
    mkdirSync(temporary);
    const env = { PATH: process.env.PATH ?? "", HOME: root, TMPDIR: temporary };
    const result = await new Promise<{ code: number | null; stderr: string; head: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [cliPath, "run", "--", "sh", "-c", script], {
        cwd: root,
        env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      let head = "";
      child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
        stderr += chunk;
      });
      child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
        if (head.length >= 10) return;
        head += chunk.slice(0, 10 - head.length);
        if (head.length >= 10) child.stdout.destroy();
      });
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stderr, head }));
    });
    expect(result.head).toBe("y\ny\ny\ny\ny\n");
    expect(result.stderr).not.toMatch(/EPIPE|at .*\.js:\d+|Error/);
    expect(result.code).toBe(0);
    // the run's directory (where hooks note their sessions) is removed although toolgate ended early
    expect(readdirSync(temporary)).toEqual([]);
    const agentPid = Number(readFileSync(pidFile, "utf8").trim());
    for (let waited = 0; waited < 3000 && alive(agentPid); waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const left = alive(agentPid);
    if (left) process.kill(agentPid, "SIGKILL");
    expect(left).toBe(false);
  });
});
