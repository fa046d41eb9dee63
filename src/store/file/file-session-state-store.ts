import { readFileSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ToolgateError } from "../../core/errors.js";
import type { SessionState } from "../../core/state.js";
import type { SessionStateStore, VersionedState } from "../ports.js";
import { sessionFileName } from "./session-file-name.js";
import { acquireSessionLock, type HeldLock } from "./session-lock.js";

export interface FileSessionStateStoreOptions {
  /** one `<name>.json` and, while an update runs, one `<name>.lock` per session (created 0700 on first use) */
  directory: string;
  /** the longest an update waits for a session's lock before STORE_UNAVAILABLE (1500 ms) */
  lockWaitMs?: number;
  /** a lock older than this is taken over even if its pid looks alive (10 s); see session-lock.ts */
  staleAfterMs?: number;
}

/**
 * SessionStateStore in plain files, for the hook's hot path: no native module, no database open. Each session is
 * one small JSON file `{ sessionId, version, state }` under `directory`, named by sessionFileName (session ids
 * are untrusted). An update takes the session's exclusive lock file (session-lock.ts), reads the file, runs `fn`,
 * writes a temporary file and renames it over the old one (readers see the old or the new file, never a torn
 * one), then releases the lock. Updates from one process are also queued per session in memory, so they do not
 * spin on their own lock.
 *
 * Failures are typed, and every one leaves the caller to answer fail-closed:
 * - STORE_UNAVAILABLE `state-locked`: the lock stayed held past `lockWaitMs`;
 * - STORE_UNAVAILABLE `state-unwritable`: the directory is read-only, full, or not a directory;
 * - STORE_CORRUPT `state-corrupt`: the file is truncated, not JSON, of another session, or not a file. The update
 *   that finds it moves it aside to `<name>.json.corrupt-<epoch ms>` (`data.quarantined`), so the next update
 *   starts from no state; the session's counts can be rebuilt from its denial records (see docs/reliability.md).
 *   `get` reports the same error without moving anything.
 */
export function createFileSessionStateStore<S = SessionState>(
  options: FileSessionStateStoreOptions,
): SessionStateStore<S> {
  const { directory } = options;
  const queues = new Map<string, Promise<unknown>>();
  const paths = (sessionId: string) => {
    const base = join(directory, sessionFileName(sessionId));
    return { file: `${base}.json`, lock: `${base}.lock` };
  };
  const lockWaitMs = options.lockWaitMs ?? 1_500;
  /** takes the lock within what is left of the update's budget (`deadline`, epoch ms) */
  const lock = async (sessionId: string, lockPath: string, deadline: number): Promise<HeldLock> => {
    try {
      return await acquireSessionLock({
        path: lockPath,
        sessionId,
        waitMs: Math.max(0, deadline - Date.now()),
        ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }),
        onTakeover: (holder) => {
          // the dead holder's temporary file, if it died between writing it and renaming it
          if (holder) unlinkQuietly(`${lockPath.slice(0, -".lock".length)}.json.${holder.token}.tmp`);
        },
      });
    } catch (error) {
      throw ToolgateError.is(error) ? error : unwritableError({ sessionId, directory, error });
    }
  };
  /** runs `task` after earlier tasks of the same session in this process */
  const queued = <T>(sessionId: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const run = previous.then(task, task);
    const settled = run.catch(() => undefined);
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return run;
  };

  return {
    async get(sessionId) {
      const { file } = paths(sessionId);
      const read = readStateFile<S>(file, sessionId);
      if (read.kind === "corrupt") throw corruptError({ sessionId, file, detail: read.detail });
      return read.kind === "missing" ? undefined : read.value;
    },
    update(sessionId, fn) {
      return queued(sessionId, async () => {
        const { file, lock: lockPath } = paths(sessionId);
        const deadline = Date.now() + lockWaitMs;
        for (;;) {
          const held = await lock(sessionId, lockPath, deadline);
          try {
            const read = readStateFile<S>(file, sessionId);
            if (read.kind === "corrupt") {
              const quarantined = `${file}.corrupt-${Date.now()}`;
              let moved: string | undefined;
              try {
                renameSync(file, quarantined);
                moved = quarantined;
              } catch {
                // left in place (read-only directory): every update keeps failing closed until it is moved
              }
              throw corruptError({ sessionId, file, detail: read.detail, quarantined: moved });
            }
            const current = read.kind === "found" ? read.value : undefined;
            const stateText = JSON.stringify(fn(current?.state));
            const version = (current?.version ?? 0) + 1;
            const temporary = `${file}.${held.token}.tmp`;
            try {
              writeFileSync(
                temporary,
                `{"sessionId":${JSON.stringify(sessionId)},"version":${version},"state":${stateText}}\n`,
                { mode: 0o600 },
              );
              if (!held.stillHeld()) {
                unlinkQuietly(temporary); // our lock was taken over: the other holder's write wins; start again
                continue;
              }
              renameSync(temporary, file);
            } catch (error) {
              unlinkQuietly(temporary);
              throw unwritableError({ sessionId, directory, error });
            }
            return { state: JSON.parse(stateText) as S, version };
          } finally {
            held.release();
          }
        }
      });
    },
    delete(sessionId) {
      return queued(sessionId, async () => {
        const { file, lock: lockPath } = paths(sessionId);
        const held = await lock(sessionId, lockPath, Date.now() + lockWaitMs);
        try {
          unlinkSync(file);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "ENOENT")
            throw unwritableError({ sessionId, directory, error });
        } finally {
          held.release();
        }
      });
    },
    async close() {
      await Promise.all(queues.values());
    },
  };
}

type ReadResult<S> =
  | { kind: "missing" }
  | { kind: "found"; value: VersionedState<S> }
  | { kind: "corrupt"; detail: string };

export function readStateFile<S>(file: string, sessionId: string): ReadResult<S> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return { kind: "missing" };
    // EISDIR (a directory where the file should be), EACCES, EIO: nothing trustworthy to count from
    return { kind: "corrupt", detail: code ?? String(error) };
  }
  let parsed: { sessionId?: unknown; version?: unknown; state?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "corrupt", detail: `not JSON (${text.length} bytes, truncated or overwritten)` };
  }
  if (parsed === null || typeof parsed !== "object" || !Number.isInteger(parsed.version) || !("state" in parsed)) {
    return { kind: "corrupt", detail: "not a toolgate state file" };
  }
  if (parsed.sessionId !== sessionId) return { kind: "corrupt", detail: "the file belongs to another session" };
  return { kind: "found", value: { state: parsed.state as S, version: parsed.version as number } };
}

function corruptError(options: { sessionId: string; file: string; detail: string; quarantined?: string }) {
  const moved = options.quarantined
    ? `It was moved to ${options.quarantined}; the next update starts from no state (counts can be rebuilt from the session's denial records).`
    : `Move it aside (mv "${options.file}" "${options.file}.broken"); until then every update of this session is refused.`;
  return new ToolgateError({
    code: "STORE_CORRUPT",
    message: `The state file ${options.file} of session ${JSON.stringify(options.sessionId.slice(0, 100))} is unreadable (${options.detail}); the call is refused (fail closed). ${moved}`,
    data: {
      reason: "state-corrupt",
      file: options.file,
      ...(options.quarantined ? { quarantined: options.quarantined } : {}),
    },
  });
}

function unwritableError(options: { sessionId: string; directory: string; error: unknown }) {
  const code = (options.error as NodeJS.ErrnoException).code ?? "";
  return new ToolgateError({
    code: "STORE_UNAVAILABLE",
    message: `Cannot write the state of session ${JSON.stringify(options.sessionId.slice(0, 100))} in ${options.directory} (${code || (options.error as Error).message}); the call is refused (fail closed). Make the directory writable (and check free space), or point toolgate's state directory elsewhere.`,
    data: { reason: "state-unwritable", directory: options.directory, errno: code },
    cause: options.error,
  });
}

function unlinkQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
