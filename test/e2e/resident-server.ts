/**
 * The resident hook (docs/resident-hook.md) in the hosts' end-to-end tests: the built client beside the snapshot's hook
 * entry, a server started the way a first event starts it (the client, a real node, the Node hook answering), and
 * its end. Each test then installs the client with a node that does not exist, so only the server can answer.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { expect } from "vitest";
import { processRunning } from "../support/process-running.js";
import { toolgateCommand } from "./claude/toolgate-cli.js";

/** What the hosts' settings would run: `bash <client> <node> hook <host>`, with this node. */
export function residentClient(): { node: string; client: string } {
  const [node, main] = toolgateCommand();
  return { node: node!, client: join(dirname(dirname(main!)), "hook", "toolgate-hook.sh") };
}

/** The hook command naming a node that does not exist: an event the server does not answer is blocked. */
export function serverOnlyCommand(host: string): string {
  return `bash "${residentClient().client}" /nonexistent/node hook ${host}`;
}

/** The pid in the server file under `home`, if one is there. */
export function residentServerPid(home: string): number | undefined {
  const directory = join(home, ".toolgate", "run");
  const name = existsSync(directory) ? readdirSync(directory).find((file) => file.endsWith(".server")) : undefined;
  return name === undefined ? undefined : Number(readFileSync(join(directory, name), "utf8").trim().split(" ")[2]);
}

/**
 * One event through the client with a real node: the Node hook answers it and starts a server for `home` (the one
 * in `env`); resolves with the server's pid once its file is there.
 */
export async function startResidentServer(options: {
  host: string;
  /** after `hook <host>`: the event, for a host whose payload does not name it */
  eventName?: string;
  event: unknown;
  cwd: string;
  env: Record<string, string | undefined>;
  home: string;
}): Promise<number> {
  const { node, client } = residentClient();
  const warmUp = spawnSync(
    "bash",
    [client, node, "hook", options.host, ...(options.eventName === undefined ? [] : [options.eventName])],
    {
      cwd: options.cwd,
      input: JSON.stringify(options.event),
      // stops by itself a few minutes after the test, should the test's end not reach it
      env: { ...options.env, TOOLGATE_HOOK_SERVER_IDLE_MS: "300000" },
      encoding: "utf8",
    },
  );
  expect(warmUp.status, warmUp.stderr).toBe(0);
  const deadline = Date.now() + 20_000;
  while (residentServerPid(options.home) === undefined && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const pid = residentServerPid(options.home);
  expect(pid, "a resident server started").toBeGreaterThan(0);
  return pid!;
}

/**
 * Ends the server whose file is under `home` (nothing when none) and waits until it has exited: as it stops it writes
 * its log and code cache under `home`, which must not land in a folder being removed.
 */
export function stopResidentServer(home: string | undefined): void {
  const pid = home === undefined ? undefined : residentServerPid(home);
  if (pid === undefined) return;
  try {
    process.kill(pid);
  } catch {
    return; // gone already
  }
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + 10_000;
  while (processRunning(pid) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  if (processRunning(pid)) process.kill(pid, "SIGKILL");
}
