import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { temporaryDirectory } from "./temporary-directory.js";

/**
 * A live process standing in for a host that spawned a hook: `node <folder>/<script> <args>`, where `script` is the
 * host's program as its command line shows it (`gemini.js`, `@qwen-code/qwen-code/cli.js`). It waits 30 s; `stop`
 * ends it. A hook is pointed at it with `TOOLGATE_HOOK_PARENT_PID`. It runs in a session of its own (setsid), so it
 * has no controlling terminal, and its stdio is /dev/null: no terminal, from /proc and from `ps` alike.
 */
export async function startFakeHostProcess(
  script: string,
  args: readonly string[],
): Promise<{ pid: number; stop: () => void }> {
  const file = join(temporaryDirectory("toolgate-host-"), script);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, "setTimeout(() => {}, 30_000);\n");
  const child: ChildProcess = spawn(process.execPath, [file, ...args], { stdio: "ignore", detached: true });
  await new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  return { pid: child.pid as number, stop: () => child.kill() };
}
