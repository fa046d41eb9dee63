import { appendFileSync, readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/**
 * How `toolgate run` learns which sessions its agent created, whatever the agent's output format: `run` makes a
 * private directory and names it in TOOLGATE_RUN_DIR; hosts pass their environment to their hooks and plugins, so
 * each toolgate process that serves a session of the run appends the session id to `<dir>/sessions`.
 */
export const RUN_DIRECTORY_ENV = "TOOLGATE_RUN_DIR";

const FILE = "sessions";

/** Notes a session in the run's directory, when this process serves a `toolgate run` child. Never throws. */
export function noteRunSession(env: Readonly<Record<string, string | undefined>>, sessionId: string): void {
  const directory = env[RUN_DIRECTORY_ENV];
  if (directory === undefined || !isAbsolute(directory)) return;
  try {
    // one short line per event, appended atomically (O_APPEND); the reader de-duplicates
    appendFileSync(join(directory, FILE), `${JSON.stringify(sessionId)}\n`, { mode: 0o600 });
  } catch {
    // not run by `toolgate run` after all, or its directory is gone: nothing to link
  }
}

/** The session ids noted in a run's directory, first seen first. */
export function runSessions(directory: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(directory, FILE), "utf8");
  } catch {
    return [];
  }
  const ids = new Set<string>();
  for (const line of text.split("\n")) {
    if (line === "") continue;
    try {
      const id = JSON.parse(line) as unknown;
      if (typeof id === "string" && id !== "") ids.add(id);
    } catch {
      // a torn line: skip it
    }
  }
  return [...ids];
}

const ABORT_FILE = "aborted";

/**
 * Notes that toolgate aborted a session of the run, when this process serves a `toolgate run` child: `run` watches
 * `<dir>/aborted` and ends the agent (some hosts have no hook answer that ends a run mid-turn). The
 * reason is already redacted (it is the abort's user-facing error). Never throws.
 */
export function noteRunAbort(
  env: Readonly<Record<string, string | undefined>>,
  abort: { sessionId: string; reason: string; hostEndsRun?: boolean },
): void {
  const directory = env[RUN_DIRECTORY_ENV];
  if (directory === undefined || !isAbsolute(directory)) return;
  const line = { ...abort, hostEndsRun: abort.hostEndsRun === true, at: Date.now() };
  try {
    appendFileSync(join(directory, ABORT_FILE), `${JSON.stringify(line)}\n`, { mode: 0o600 });
  } catch {
    // not run by `toolgate run` after all, or its directory is gone
  }
}

/** An abort noted by a hook: whether the host ends the run by itself, and when it was noted (ms since epoch). */
export interface RunAbort {
  sessionId: string;
  reason: string;
  hostEndsRun: boolean;
  at: number;
}

/**
 * The first abort noted in a run's directory, or undefined. `hostEndsRun` holds only while every note says so: a
 * later note without it (the agent made another call after the abort) tells `run` to end the agent now.
 */
export function runAbort(directory: string): RunAbort | undefined {
  let text: string;
  try {
    text = readFileSync(join(directory, ABORT_FILE), "utf8");
  } catch {
    return undefined;
  }
  let first: RunAbort | undefined;
  for (const line of text.split("\n")) {
    try {
      const value = JSON.parse(line) as { sessionId?: unknown; reason?: unknown; hostEndsRun?: unknown; at?: unknown };
      if (typeof value.sessionId !== "string" || typeof value.reason !== "string") continue;
      first ??= {
        sessionId: value.sessionId,
        reason: value.reason,
        hostEndsRun: true,
        at: typeof value.at === "number" ? value.at : 0,
      };
      if (value.hostEndsRun !== true) first.hostEndsRun = false;
    } catch {
      // an empty or torn line
    }
  }
  return first;
}
