import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { processRunning } from "../../test/support/process-running.js";
import { temporaryDirectory } from "../../test/support/temporary-directory.js";
import { runsServerOf, startServerAfterAnswer } from "./hook-server-start.js";

/**
 * A stuck resident hook server is ended by the Node hook that answered in its place, once the pid the client names is
 * that server: its command line from /proc, or from `ps` where there is no /proc (macOS, the BSDs). The `ps` path is
 * run here by naming a proc root that does not exist.
 */
let folder: string;
const children: ChildProcess[] = [];

beforeEach(() => {
  folder = temporaryDirectory("toolgate-server-start-");
});

afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  }
});

/** a process whose command line ends as a server's does: `... --serve <file>` (a path with a space) */
async function fakeServer(file: string): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)", "--", "--serve", file], {
    stdio: "ignore",
  });
  children.push(child);
  await new Promise((resolve) => child.once("spawn", resolve));
  return child.pid!;
}

/** waits until `pid` has ended (SIGKILL is delivered at once, the exit is seen a moment later) */
const ended = (pid: number) =>
  vi.waitFor(() => expect(processRunning(pid)).toBe(false), { timeout: 5000, interval: 25 });

describe("runsServerOf", () => {
  it("knows the server of a file by its command line, from /proc and from ps", async () => {
    const file = join(folder, "run dir", "hook-install.server");
    const other = join(folder, "run dir", "hook-other.server");
    const pid = await fakeServer(file);
    expect(runsServerOf(pid, file)).toBe(true);
    expect(runsServerOf(pid, other)).toBe(false);
    const noProc = join(folder, "no-proc");
    expect(runsServerOf(pid, file, { proc: noProc })).toBe(true);
    expect(runsServerOf(pid, other, { proc: noProc })).toBe(false);
    // a file that only starts the same: ps's line must end with the whole file
    expect(runsServerOf(pid, join(folder, "run dir", "hook-install"), { proc: noProc })).toBe(false);
    // this process is no server
    expect(runsServerOf(process.pid, file, { proc: noProc })).toBe(false);
  });

  it("is false for a pid that is gone, with /proc and with ps", async () => {
    const file = join(folder, "hook-install.server");
    const pid = await fakeServer(file);
    const child = children[0]!;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    expect(runsServerOf(pid, file)).toBe(false);
    expect(runsServerOf(pid, file, { proc: join(folder, "no-proc") })).toBe(false);
  });
});

describe("startServerAfterAnswer with a stuck server", () => {
  // with a marker: the server hung after it published its address and before it removed its start marker (seen
  // under load: a test stopped the server in that window, and no new server started for the marker's 30 s)
  it.each([
    ["without a start marker", false],
    ["that left its start marker", true],
  ])("ends the stuck server the client names (%s), and starts a new one at once", async (_, leftMarker) => {
    const file = join(folder, "run", "hook-install.server");
    const pid = await fakeServer(file);
    if (leftMarker) {
      mkdirSync(join(folder, "run"), { recursive: true });
      writeFileSync(`${file}.starting`, "");
    }
    const started: string[] = [];
    const env = { TOOLGATE_HOOK_SERVER_FILE: file, TOOLGATE_HOOK_SERVER_STUCK: String(pid) };
    expect(startServerAfterAnswer(env, { start: (serverFile) => started.push(serverFile) })).toBe(true);
    expect(started).toEqual([file]);
    await ended(pid);
  });

  it("starts no second server while a start is under way, without a stuck server to end", async () => {
    const file = join(folder, "run", "hook-install.server");
    mkdirSync(join(folder, "run"), { recursive: true });
    writeFileSync(`${file}.starting`, "");
    const started: string[] = [];
    expect(startServerAfterAnswer({ TOOLGATE_HOOK_SERVER_FILE: file }, { start: (f) => started.push(f) })).toBe(false);
    // a named pid that is another file's server is not ended and does not clear the marker either
    const other = await fakeServer(join(folder, "run", "hook-other.server"));
    const env = { TOOLGATE_HOOK_SERVER_FILE: file, TOOLGATE_HOOK_SERVER_STUCK: String(other) };
    expect(startServerAfterAnswer(env, { start: (f) => started.push(f) })).toBe(false);
    expect(started).toEqual([]);
    expect(existsSync(`${file}.starting`)).toBe(true);
    expect(processRunning(other)).toBe(true);
  });

  it("leaves a pid that is not that file's server running", async () => {
    const pid = await fakeServer(join(folder, "run", "hook-other.server"));
    const file = join(folder, "run", "hook-install.server");
    const env = { TOOLGATE_HOOK_SERVER_FILE: file, TOOLGATE_HOOK_SERVER_STUCK: String(pid) };
    expect(startServerAfterAnswer(env, { start: () => undefined })).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processRunning(pid)).toBe(true);
  });
});
