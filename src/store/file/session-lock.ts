import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname } from "node:path";
import { ToolgateError } from "../../core/errors.js";

/**
 * An exclusive lock file per session, shared by every process on the machine (Claude Code runs one toolgate
 * process per hook event).
 *
 * - Taking it is one `open(O_CREAT | O_EXCL)`: exactly one process creates the file. Its content names the holder:
 *   `{ pid, host, at, token }` (the token is unique per acquisition).
 * - A waiter retries with short sleeps (1 ms doubling to 16 ms) for at most `waitMs`, then throws STORE_UNAVAILABLE
 *   (`data.reason: "state-locked"`): the caller answers fail-closed; it never waits past its budget.
 * - A lock is stale when its holder is gone: same host and `process.kill(pid, 0)` says no such process, or it is
 *   older than `staleAfterMs` (a holder keeps it for milliseconds; an older lock means a pid reused by another
 *   process, a frozen process, or a holder on another host or in another pid namespace). An empty or unreadable lock
 *   file (a holder that died between create and write) counts by age only.
 * - Takeover renames the stale file aside and checks that what it moved is what it judged stale (same content);
 *   if it moved a fresh lock instead, it links it back.
 * - Whatever a takeover does, a holder commits only after `stillHeld()` re-reads the lock file and finds its own
 *   token, so a holder whose lock was taken over discards its write and retries: no lost update, except if a
 *   holder freezes for longer than `staleAfterMs` exactly between that check and its rename (microseconds).
 */
export interface HeldLock {
  readonly token: string;
  /** re-reads the lock file: true while it is still this holder's */
  stillHeld(): boolean;
  /** removes the lock file if it is still this holder's */
  release(): void;
}

export interface LockHolder {
  pid: number;
  host: string;
  at: number;
  token: string;
}

export interface SessionLockOptions {
  /** the lock file */
  path: string;
  /** how long to wait for the lock before STORE_UNAVAILABLE (1500 ms) */
  waitMs?: number;
  /** a lock older than this is taken over even if its pid is alive (10 s) */
  staleAfterMs?: number;
  /** for messages */
  sessionId: string;
  /** called with the stale holder after a takeover (cleanup of its temporary files, logging) */
  onTakeover?: (holder: LockHolder | undefined) => void;
}

let sequence = 0;
let knownHost: string | undefined;
/** This machine's name, looked up on the first lock (never at import). */
const thisHost = (): string => {
  knownHost ??= hostName();
  return knownHost;
};

/**
 * This machine's name, as `os.hostname()` gives it (uname's node name). On Linux it is read from /proc, the same
 * kernel field: loading node:os costs a hook process about 0.3 ms, and every state write takes this lock.
 */
function hostName(): string {
  if (process.platform === "linux") {
    try {
      const name = readFileSync("/proc/sys/kernel/hostname", "utf8").trim();
      if (name !== "") return name;
    } catch {
      // no /proc: ask node:os
    }
  }
  return process.getBuiltinModule("node:os").hostname();
}

export async function acquireSessionLock(options: SessionLockOptions): Promise<HeldLock> {
  const waitMs = options.waitMs ?? 1_500;
  const staleAfterMs = options.staleAfterMs ?? 10_000;
  const started = Date.now();
  let delay = 1;
  for (;;) {
    const held = tryCreate(options.path);
    if (held) return held;
    if (breakIfStale({ path: options.path, staleAfterMs, onTakeover: options.onTakeover })) continue;
    const waited = Date.now() - started;
    if (waited >= waitMs) {
      throw new ToolgateError({
        code: "STORE_UNAVAILABLE",
        message: `The state of session ${JSON.stringify(options.sessionId.slice(0, 100))} stayed locked for ${waited} ms by ${describeHolder(options.path)}, longer than the ${waitMs} ms budget; the call is refused (fail closed). If no toolgate process is running, remove ${options.path}.`,
        data: { reason: "state-locked", lock: options.path, waitedMs: waited },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, waitMs - waited)));
    delay = Math.min(delay * 2, 16);
  }
}

function tryCreate(path: string, directoryMade = false): HeldLock | undefined {
  const token = `${process.pid}-${Date.now().toString(36)}-${(sequence++).toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  const content = JSON.stringify({ pid: process.pid, host: thisHost(), at: Date.now(), token } satisfies LockHolder);
  let descriptor: number;
  try {
    descriptor = openSync(path, "wx", 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST") return undefined;
    if (code === "ENOENT" && !directoryMade) {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      return tryCreate(path, true);
    }
    throw error;
  }
  try {
    writeSync(descriptor, content);
  } catch (error) {
    closeSync(descriptor);
    unlinkSync(path);
    throw error;
  }
  closeSync(descriptor);
  const stillHeld = () => readOrUndefined(path) === content;
  return {
    token,
    stillHeld,
    release() {
      if (stillHeld()) unlinkQuietly(path);
    },
  };
}

/** true when the lock is gone now (removed as stale, or released meanwhile): try to create it again at once */
function breakIfStale(options: {
  path: string;
  staleAfterMs: number;
  onTakeover: ((holder: LockHolder | undefined) => void) | undefined;
}): boolean {
  const { path } = options;
  let content: string;
  let modified: number;
  try {
    modified = statSync(path).mtimeMs;
    content = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  const holder = parseHolder(content);
  const old = Date.now() - modified > options.staleAfterMs;
  const gone = holder !== undefined && holder.host === thisHost() && !isAlive(holder.pid);
  if (!old && !gone) return false;
  const aside = `${path}.${process.pid}-${Math.random().toString(36).slice(2, 10)}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
  if (readOrUndefined(aside) === content) {
    unlinkQuietly(aside);
    options.onTakeover?.(holder);
    return true;
  }
  // We moved a lock created after our look: put it back unless someone else already holds the name (then that
  // holder's stillHeld() fails and it retries).
  try {
    linkSync(aside, path);
  } catch {
    // EEXIST: a new lock is in place
  }
  unlinkQuietly(aside);
  return false;
}

export function parseHolder(content: string): LockHolder | undefined {
  try {
    const value = JSON.parse(content) as Partial<LockHolder>;
    if (typeof value.pid === "number" && typeof value.host === "string" && typeof value.token === "string") {
      return { pid: value.pid, host: value.host, at: Number(value.at), token: value.token };
    }
  } catch {
    // empty or torn: judged by age
  }
  return undefined;
}

/** Whether a process with this pid exists (EPERM: it does, owned by another user). */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by another user
  }
}

function describeHolder(path: string): string {
  const holder = parseHolder(readOrUndefined(path) ?? "");
  return holder ? `process ${holder.pid} on ${holder.host}` : "an unknown process";
}

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
