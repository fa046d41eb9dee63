import { closeSync, mkdirSync, openSync, readFileSync, statSync } from "node:fs";
import { dirname, join } from "node:path";

/**
 * How a hook process starts the resident hook server (docs/resident-hook.md). The bash client
 * (`dist/hook/toolgate-hook.sh`) names the server file (`~/.toolgate/run/hook-<install>.server`, one per user and
 * install) and hands it to the Node hook it falls back to (`TOOLGATE_HOOK_SERVER_FILE`); that hook answers, then
 * starts a server in the background for the next events (`startServerAfterAnswer`).
 */
export const HOOK_SERVER_FILE_ENV = "TOOLGATE_HOOK_SERVER_FILE";

/** The pid of a server that took the client's event and did not answer in time (set by the client). */
export const HOOK_SERVER_STUCK_ENV = "TOOLGATE_HOOK_SERVER_STUCK";

/** How long a resident hook server waits for a request before it stops (TOOLGATE_HOOK_SERVER_IDLE_MS). */
export const HOOK_SERVER_IDLE_MS = 15 * 60_000;

/** A start marker younger than this means a server is starting: no second one is started. */
const STARTING_MS = 30_000;

/** What the server file holds: `<port> <token> <pid>`. */
export interface HookServerAddress {
  port: number;
  token: string;
  pid: number;
}

/**
 * The server file the client of `hookDirectory` (the install's `dist/hook`, as its command names it) uses under
 * `home`: `~/.toolgate/run/hook-<install>.server`, `<install>` that path's UTF-8 bytes with each byte but ASCII
 * letters and digits made `_`, its last 120 kept. The same name `toolgate-hook.sh` makes, in every locale.
 */
export function residentServerFile(home: string, hookDirectory: string): string {
  let install = "";
  for (const byte of Buffer.from(hookDirectory, "utf8")) {
    const alphanumeric = (byte >= 48 && byte <= 57) || (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122);
    install += alphanumeric ? String.fromCharCode(byte) : "_";
  }
  return join(home, ".toolgate", "run", `hook-${install.slice(-120)}.server`);
}

export function readServerFile(file: string): HookServerAddress | undefined {
  try {
    const [port, token, pid] = readFileSync(file, "latin1").trim().split(" ");
    if (!/^\d+$/.test(port ?? "") || !/^[0-9a-f]{32,}$/.test(token ?? "") || !/^\d+$/.test(pid ?? "")) return undefined;
    return { port: Number(port), token: token!, pid: Number(pid) };
  } catch {
    return undefined;
  }
}

/**
 * After a Node hook answered for the client (`TOOLGATE_HOOK_SERVER_FILE` set: the client found no server that
 * answered): starts a server for the client's next events, unless one is being started (a start marker younger than
 * 30 s). `start` runs the server process in the background. False when nothing was started. Never throws: without a server the client runs the Node hook.
 */
export function startServerAfterAnswer(
  env: Readonly<Record<string, string | undefined>>,
  options: { start: (serverFile: string) => void; now?: number },
): boolean {
  const now = options.now ?? Date.now();
  const file = env[HOOK_SERVER_FILE_ENV];
  if (file === undefined || !file.startsWith("/") || !file.endsWith(".server")) return false;
  try {
    const marker = `${file}.starting`;
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    try {
      closeSync(openSync(marker, "wx", 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      // a marker left by a start that failed: replaced once it is old
      if (now - statSync(marker).mtimeMs < STARTING_MS) return false;
      closeSync(openSync(marker, "w", 0o600));
    }
    stopStuckServer(file, env[HOOK_SERVER_STUCK_ENV]);
    options.start(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the server that took an event and never answered (its event loop is stuck: it would never go idle), when
 * the pid the client names is still that server: its command line (Linux `/proc`) runs `--serve` for this file. A pid
 * that is anything else, or where the command line cannot be read, is left alone.
 */
function stopStuckServer(file: string, given: string | undefined): void {
  if (given === undefined || !/^\d{1,10}$/.test(given)) return;
  const pid = Number(given);
  if (pid <= 1 || pid === process.pid) return;
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    if (argv.includes("--serve") && argv.includes(file)) process.kill(pid, "SIGKILL");
  } catch {
    // gone, not ours, or no /proc: left alone
  }
}
