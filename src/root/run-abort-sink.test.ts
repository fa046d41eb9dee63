import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createGuard } from "../guard/create-guard.js";
import { compilePolicy } from "../policy/compile-policy.js";
import { runAbortSink } from "./run-abort-sink.js";
import { noteRunAbort, RUN_DIRECTORY_ENV, runAbort } from "./run-sessions.js";

const directories: string[] = [];
function runDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolgate-run-abort-"));
  directories.push(directory);
  return directory;
}
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

/** A policy that denies `rm`, so two denials abort a headless session. */
const denyRm = () =>
  compilePolicy({
    rules: [{ rule: "Bash(rm *)", behavior: "deny", origin: "test" }],
    cwd: "/tmp/p",
    homeDir: "/tmp/h",
  });

describe("the run's abort note", () => {
  it("is written by the sink when the guard aborts a session, with the abort's error, and read by run", async () => {
    const directory = runDirectory();
    const env = { [RUN_DIRECTORY_ENV]: directory };
    const policy = denyRm();
    const guard = createGuard({ policy, sinks: runAbortSink(env), onError: () => undefined });
    const session = guard.session("s1", { interactive: false, host: "codex" });
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      expect(runAbort(directory)).toBeUndefined();
      await session.decide({ toolUseId: `t${attempt}`, tool: "Bash", input: { command: "rm -rf x" } });
      await guard.drain();
    }
    const noted = runAbort(directory);
    expect(noted?.sessionId).toBe("s1");
    expect(noted?.reason).toMatch(/toolgate aborted the run/);
    expect(noted?.hostEndsRun).toBe(false);
  });

  it("says when the host's own answer ends the run (run then waits before ending the agent)", async () => {
    const directory = runDirectory();
    const env = { [RUN_DIRECTORY_ENV]: directory };
    const policy = denyRm();
    const sinks = runAbortSink(env, { hostEndsRun: true });
    const guard = createGuard({ policy, sinks, onError: () => undefined });
    const session = guard.session("s1", { interactive: false, host: "claude-code" });
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await session.decide({ toolUseId: `t${attempt}`, tool: "Bash", input: { command: "rm -rf x" } });
      await guard.drain();
    }
    expect(runAbort(directory)?.hostEndsRun).toBe(true);
  });

  it("ends the host's grace when a later note does not leave the end to the host (a call made after the abort)", () => {
    const directory = runDirectory();
    const env = { [RUN_DIRECTORY_ENV]: directory };
    noteRunAbort(env, { sessionId: "s3", reason: "first", hostEndsRun: true });
    expect(runAbort(directory)?.hostEndsRun).toBe(true);
    noteRunAbort(env, { sessionId: "s3", reason: "again", hostEndsRun: false });
    expect(runAbort(directory)).toMatchObject({ sessionId: "s3", reason: "first", hostEndsRun: false });
  });

  it("is a no-op outside toolgate run, and a torn line is skipped", () => {
    expect(runAbortSink({})).toEqual([]);
    noteRunAbort({}, { sessionId: "s", reason: "r" });
    noteRunAbort({ [RUN_DIRECTORY_ENV]: "relative/dir" }, { sessionId: "s", reason: "r" });
    const directory = runDirectory();
    noteRunAbort({ [RUN_DIRECTORY_ENV]: directory }, { sessionId: "s2", reason: "stopped" });
    expect(runAbort(directory)).toEqual({
      sessionId: "s2",
      reason: "stopped",
      hostEndsRun: false,
      at: expect.any(Number),
    });
  });
});
