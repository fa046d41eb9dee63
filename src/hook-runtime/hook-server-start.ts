import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync } from "node:fs";
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
 * answered): ends the server the client found stuck (`TOOLGATE_HOOK_SERVER_STUCK`, once its command line shows it is
 * that server), then starts a server for the client's next events, unless one is being started (a start marker
 * younger than 30 s). A stuck server that was ended takes its start marker with it: a server can hang after it
 * published its address and before it removed its marker, which would hold off every new server for 30 s. `start`
 * runs the server process in the background. False when nothing was started. Never throws: without a server the
 * client runs the Node hook.
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
    if (stopStuckServer(file, env[HOOK_SERVER_STUCK_ENV])) rmSync(marker, { force: true });
    try {
      closeSync(openSync(marker, "wx", 0o600));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
      // a marker left by a start that failed: replaced once it is old
      if (now - statSync(marker).mtimeMs < STARTING_MS) return false;
      closeSync(openSync(marker, "w", 0o600));
    }
    options.start(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops the server that took an event and never answered (its event loop is stuck: it would never go idle), when
 * the pid the client names is still that server (`runsServerOf`). A pid that is anything else, or whose command line
 * cannot be read, is left alone. True when it was ended.
 */
function stopStuckServer(file: string, given: string | undefined): boolean {
  if (given === undefined || !/^\d{1,10}$/.test(given)) return false;
  const pid = Number(given);
  if (pid <= 1 || pid === process.pid) return false;
  try {
    if (!runsServerOf(pid, file)) return false;
    process.kill(pid, "SIGKILL");
    return true;
  } catch {
    // gone, or not ours: left alone
    return false;
  }
}

/**
 * Whether process `pid` is the resident hook server of `file`: its command line runs `--serve <file>`. Read from
 * `/proc/<pid>/cmdline` (Linux), or where there is no `/proc` (macOS, the BSDs) from `ps -ww -o command= -p <pid>`,
 * whose line must end with ` --serve <file>` (the server's last two arguments). False when neither tells (a pid
 * that is gone, a `ps` that fails or takes over 2 s). `proc`: the proc file system's root (a test's folder).
 */
export function runsServerOf(pid: number, file: string, options: { proc?: string } = {}): boolean {
  const proc = options.proc ?? "/proc";
  try {
    const argv = readFileSync(`${proc}/${pid}/cmdline`, "utf8").split("\0");
    return argv.includes("--serve") && argv.includes(file);
  } catch {
    // a pid that is gone, where there is a /proc; else ps below
    if (existsSync(proc)) return false;
  }
  try {
    // loaded only here: a stuck server is rare, and node:child_process costs a hook process about 20 M instructions
    const { execFileSync } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");
    const command = execFileSync("ps", ["-ww", "-o", "command=", "-p", String(pid)], {
      encoding: "utf8",
      timeout: 2000,
      stdio: ["ignore", "pipe", "ignore"],
    });
    return command.trimEnd().endsWith(` --serve ${file}`);
  } catch {
    return false;
  }
}
