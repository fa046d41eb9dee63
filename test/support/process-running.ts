import { existsSync, readFileSync } from "node:fs";

/**
 * Whether the process `pid` still runs. One that exited and waits for its parent (a new one, for a detached
 * process) to reap it is a zombie: ended. Where `/proc` cannot say, a process that `kill(pid, 0)` finds runs.
 */
export function processRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    // gone between the two looks; or no /proc (macOS): kill said it runs
    return !existsSync("/proc");
  }
}
