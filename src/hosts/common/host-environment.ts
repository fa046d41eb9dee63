import { existsSync, readFileSync, readlinkSync } from "node:fs";

/**
 * Whether a person can answer a host's prompts, for hosts that tell their hooks nothing about it (each such host's
 * `*-environment.ts`): toolgate's own signals first (`interactiveFromEnv`), then the command line and terminals of
 * the host process that spawned the hook (`findHostProcess`), read with each host's own rule in its folder.
 */

/** `TOOLGATE_INTERACTIVE`, every host's override of its mode: `1`/`true` or `0`/`false`; undefined otherwise. */
export function interactiveOverride(env: Readonly<Record<string, string | undefined>>): boolean | undefined {
  const value = env["TOOLGATE_INTERACTIVE"];
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  return undefined;
}

/**
 * toolgate's own signals, the same for every such host: `TOOLGATE_INTERACTIVE=1|true` or `0|false` decides; a run
 * under `toolgate run` (`TOOLGATE_RUN=1`) or with `CI` set (not empty, `0` or `false`) is headless. Undefined when
 * none of them says: the host's process is read next.
 */
export function interactiveFromEnv(env: Readonly<Record<string, string | undefined>>): boolean | undefined {
  const override = interactiveOverride(env);
  if (override !== undefined) return override;
  if (env["TOOLGATE_RUN"] === "1") return false;
  const ci = env["CI"];
  if (ci !== undefined && ci !== "" && ci !== "0" && ci !== "false") return false;
  return undefined;
}

/**
 * A host session's mode: toolgate's own signals (`interactiveFromEnv`), else the host's rule applied to what `read`
 * finds of its process, else interactive (nothing to read: an ask is left to the host, which still declines it
 * headless).
 */
export function interactiveSession<P>(
  env: Readonly<Record<string, string | undefined>>,
  host: { read: () => P | undefined; rule: (found: P) => boolean },
): boolean {
  const fromEnv = interactiveFromEnv(env);
  if (fromEnv !== undefined) return fromEnv;
  const found = host.read();
  return found === undefined ? true : host.rule(found);
}

/** What a hook reads about the host process that spawned it. */
export interface HostProcess {
  /**
   * Its arguments, after its program (`programIndex`). From `/proc` each argument is one element; from `ps` (no
   * `/proc`: macOS, the BSDs) the line is split at spaces, so an argument with a space in it (a prompt) becomes
   * several.
   */
  args: readonly string[];
  /**
   * whether its stdin is a terminal; undefined when unknown. From `ps`: false when the process has no controlling
   * terminal (a scheduled or detached run), else unknown (its stdin may still be a pipe)
   */
  stdinIsTerminal: boolean | undefined;
  /** whether its stdout is a terminal; undefined when unknown (from `ps`, as stdin) */
  stdoutIsTerminal: boolean | undefined;
}

export interface FindHostProcessOptions {
  /** the host's program, tested against a command line's program (`programIndex`): its path or script */
  program: RegExp;
  /** the proc file system's root (a test's folder); where it does not exist, `ps` is asked */
  proc?: string;
  /** the process table as `ps -ww -A -o pid=,ppid=,tty=,command=` prints it (a test's text); default: that command */
  ps?: () => string;
}

/** how many processes up the walk looks: the hook's shell usually execs it, so the host is normally the parent */
const MAX_LEVELS = 4;

/**
 * The nearest process at or above `start` (the hook's parent) whose program is the host's, at most four levels up, with
 * its terminals. Read from `/proc` (Linux); where there is no `/proc`, from one `ps` listing of every process (its
 * controlling terminal only: none means no terminal on stdin or stdout, one leaves them unknown). Undefined when no such process is found or nothing can be read: the caller's default applies.
 */
export function findHostProcess(start: number, options: FindHostProcessOptions): HostProcess | undefined {
  const proc = options.proc ?? "/proc";
  if (existsSync(proc)) return fromProc(start, proc, options.program);
  return fromPs(start, options);
}

/**
 * Where a command line's program is: its first element, or for a script run by a JavaScript runtime (`node`, `bun`)
 * the runtime's first argument that is no option (`node --expose-gc /x/cli.js -p hi`: 2). -1 when there is none. A
 * host's name anywhere else (`toolgate hook <host>`) is no host.
 */
export function programIndex(argv: readonly string[]): number {
  const first = argv[0];
  if (first === undefined) return -1;
  if (!/(^|[\\/])(node|nodejs|bun)(\.exe)?$/.test(first)) return 0;
  return argv.findIndex((argument, index) => index > 0 && !argument.startsWith("-"));
}

/**
 * The arguments after the program, when the program is the host's. A process that sets its title (npm: `npm exec
 * vitest run src/hosts/<host>`) overwrites its command line with one string, which may end in a host's name: a program
 * with a space in it is taken only when it is a file that exists.
 */
function hostArgs(argv: readonly string[], program: RegExp): readonly string[] | undefined {
  const index = programIndex(argv);
  if (index < 0) return undefined;
  const candidate = argv[index] as string;
  if (!program.test(candidate) || (/\s/.test(candidate) && !existsSync(candidate))) return undefined;
  return argv.slice(index + 1);
}

function fromProc(start: number, proc: string, program: RegExp): HostProcess | undefined {
  try {
    let pid = start;
    for (let level = 0; level < MAX_LEVELS && pid > 1; level += 1) {
      const args = hostArgs(readFileSync(`${proc}/${pid}/cmdline`, "utf8").split("\0").filter(Boolean), program);
      if (args !== undefined) {
        return {
          args,
          stdinIsTerminal: terminalOn(`${proc}/${pid}/fd/0`),
          stdoutIsTerminal: terminalOn(`${proc}/${pid}/fd/1`),
        };
      }
      const stat = readFileSync(`${proc}/${pid}/stat`, "utf8");
      // `pid (comm) state ppid ...`: the command's name may hold spaces and parentheses, so read after the last `)`
      pid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    }
    return undefined;
  } catch {
    return undefined;
  }
}

function terminalOn(link: string): boolean | undefined {
  try {
    return /^\/dev\/(pts\/|tty)/.test(readlinkSync(link));
  } catch {
    return undefined;
  }
}

function fromPs(start: number, options: FindHostProcessOptions): HostProcess | undefined {
  let table: string;
  try {
    table = (options.ps ?? listProcesses)();
  } catch {
    return undefined;
  }
  const processes = new Map<number, { parent: number; terminal: string; command: string }>();
  for (const line of table.split("\n")) {
    const row = /^\s*(\d+)\s+(\d+)\s+(\S+)\s(.*)$/.exec(line);
    if (row !== null) {
      const [, pid, parent, terminal, command] = row as unknown as [string, string, string, string, string];
      processes.set(Number(pid), { parent: Number(parent), terminal, command: command.trim() });
    }
  }
  let pid = start;
  for (let level = 0; level < MAX_LEVELS && pid > 1; level += 1) {
    const entry = processes.get(pid);
    if (entry === undefined) return undefined;
    const args = hostArgs(entry.command.split(/\s+/).filter(Boolean), options.program);
    if (args !== undefined) {
      // no controlling terminal: no terminal on its stdin or stdout either; with one, they may still be pipes
      const terminal = NO_TERMINAL.has(entry.terminal) ? false : undefined;
      return { args, stdinIsTerminal: terminal, stdoutIsTerminal: terminal };
    }
    pid = entry.parent;
  }
  return undefined;
}

/** How `ps -o tty` shows a process without a controlling terminal: procps (Linux) `?`, macOS `??`, FreeBSD `-`. */
const NO_TERMINAL = new Set(["?", "??", "-"]);

function listProcesses(): string {
  // loaded only here: only where there is no /proc, and only when a hook asks whether a person can answer
  const { execFileSync } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");
  return execFileSync("ps", ["-ww", "-A", "-o", "pid=,ppid=,tty=,command="], {
    encoding: "utf8",
    timeout: 2000,
    maxBuffer: 16 * 1024 * 1024,
    stdio: ["ignore", "pipe", "ignore"],
  });
}

/** Whether `argument` is one of `flags`, alone or with its value after `=` (`--prompt=hi`). */
export function isFlag(argument: string, flags: readonly string[]): boolean {
  for (const flag of flags) {
    if (argument === flag || (flag.startsWith("--") && argument.startsWith(`${flag}=`))) return true;
  }
  return false;
}
