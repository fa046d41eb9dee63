import { errorText } from "../guard/error-text.js";
import type { HookAnswer, HookHost } from "../hosts/common/hook-host.js";
import { readTranscript, transcriptOpenerForOneEvent } from "../hosts/common/read-transcript.js";
import { openToolgate, type Toolgate } from "../root/open-toolgate.js";
import { noteRunAbort, noteRunSession, RUN_DIRECTORY_ENV, type RunAbort, runAbort } from "../root/run-sessions.js";
import { isAlive } from "../store/file/session-lock.js";
import { defaultStateDirectory } from "../store/resolve-store-location.js";
import { labelsFromEnv } from "./session-labels.js";
import { transcriptCursorFiles } from "./transcript-cursor-files.js";

export interface RunHookOptions {
  stdinText: string;
  /** the event named on the command line (`toolgate hook <host> <event>`), for a host whose payload does not name it */
  eventName?: string;
  env?: Record<string, string | undefined>;
  /** reports internal errors; one line on stderr by default */
  onError?: (message: string) => void;
  /**
   * how long the decision may take (config, store, policy, the host's handler) before the host's fail-closed
   * answer is given instead; default: no bound (the hook process passes `HOOK_ANSWER_BUDGET_MS`)
   */
  answerBudgetMs?: number;
  /**
   * under `toolgate run`, once the run was aborted, how long an event of a host that cannot end itself waits for run
   * to end the host before it is answered (default `HOLD_AFTER_ABORT_MS`; the wait ends when the host is gone)
   */
  holdAfterAbortMs?: number;
  /**
   * when the event's close finds the spool due for a drain: hands it to another process instead of draining here
   * (`drainInBackground` in the hook entry); without it, the drain runs in this process before `finish` resolves
   */
  deferDrain?: (where: { hostName: string; cwd: string }) => void;
  /** the directory the hook runs in, for a host whose event does not name its project (default: this process's) */
  cwd?: string;
  /**
   * the host process the event came from, when it is not this process's parent (the resident hook server answers
   * for a client the host started): waited on instead of this process's parent after an abort
   */
  hostPid?: number;
}

/** Below every hook timeout a host applies (the shortest: 30 s), above run's SIGTERM-then-SIGKILL grace (5 s). */
export const HOLD_AFTER_ABORT_MS = 10_000;
const ORPHAN_POLL_MS = 50;

/** An answered hook event whose sink deliveries (store appends, webhooks, command hooks) may still be under way. */
export interface StartedHook {
  answer: HookAnswer;
  /**
   * Waits for the deliveries still under way and closes the store, at most `budgetMs` (none: until done). Resolves
   * `true` when everything finished, `false` when the budget ran out first (what was still under way is abandoned
   * with the process; see docs/reliability.md for what the audit trail keeps). Never throws.
   */
  finish(options?: { budgetMs?: number }): Promise<boolean>;
}

/**
 * One command-hook event, answered before anything that only observes it: parse the event, open toolgate through
 * the one composition root (config, policy, store, audit), hand the host's handler a guard session, and return the
 * answer while sink deliveries go on; the caller writes the answer, then calls `finish`. Anything that goes wrong,
 * and a decision that takes longer than `answerBudgetMs`, becomes the host's fail-closed answer (a refusal for
 * gating events and unreadable input), never an allow.
 */
export async function startHook<Input>(host: HookHost<Input>, options: RunHookOptions): Promise<StartedHook> {
  const env = options.env ?? process.env;
  const onError = options.onError ?? ((message: string) => process.stderr.write(`toolgate: ${message}\n`));
  const eventName = topLevelEventName(options.stdinText) ?? options.eventName;
  // the run was already aborted and this host cannot end itself (no hook answer ends its turn): `run` ends it now, and this event's answer
  // waits for that, so the host cannot make another call meanwhile
  const runStopping = host.endsRunOnAbort === true ? undefined : abortedRun(env);
  if (runStopping !== undefined) {
    noteRunAbort(env, { sessionId: runStopping.sessionId, reason: runStopping.reason, hostEndsRun: false });
  }
  let toolgate: Toolgate | undefined;
  const failClosed = (message: string): HookAnswer => {
    onError(`hook ${eventName ?? "(unreadable event)"} failed: ${message}`);
    return host.failClosed({ eventName, reason: message });
  };
  const decide = async (): Promise<HookAnswer> => {
    try {
      const input =
        options.eventName === undefined
          ? host.parse(options.stdinText)
          : host.parse(options.stdinText, { eventName: options.eventName });
      // asked only when something reads it (a new session's state, a decision): a host may have to look for it
      // (one reads its own process's command line in /proc), and most events of a session need neither
      let interactiveValue: boolean | undefined;
      const interactive = () => {
        interactiveValue ??= host.interactive(env);
        return interactiveValue;
      };
      const cwd = host.projectDir(input, env) ?? options.cwd ?? process.cwd();
      toolgate = await openToolgate({
        host: host.name,
        ...(host.escalationDefaults === undefined ? {} : { hostDefaults: host.escalationDefaults }),
        cwd,
        env,
        ...(options.deferDrain === undefined
          ? {}
          : { deferDrain: () => options.deferDrain?.({ hostName: host.name, cwd }) }),
        // `openToolgate` notes an abort for `toolgate run` (as the host's to end, so the model first reads why): a
        // host that goes on is ended at its next event (below)
        onError: (error, where) => onError(`${where}: ${errorText(error)}`),
        // an event that consults no rule (a prompt, a turn's end, a call that ran) reads no permission file
        policyOnDemand: true,
      });
      const sessionId = host.sessionId(input);
      noteRunSession(env, sessionId);
      const labels = labelsFromEnv(env);
      const session = toolgate.guard.session(sessionId, {
        get interactive() {
          return interactive();
        },
        host: host.name,
        ...(labels === undefined ? {} : { labels }),
      });
      const home = env["HOME"]?.trim() ? env["HOME"] : undefined;
      // where a Stop notes how far it recorded a transcript's denials: beside the session's state file (the
      // directory the local-first store keeps; no HOME, no cursors)
      const transcriptCursors =
        home === undefined
          ? undefined
          : transcriptCursorFiles({ directory: defaultStateDirectory({ home }), sessionId });
      try {
        return await host.handle(input, {
          session,
          get interactive() {
            return interactive();
          },
          readTranscript,
          openTranscript: transcriptOpenerForOneEvent(),
          ...(transcriptCursors === undefined ? {} : { transcriptCursors }),
          env,
        });
      } finally {
        // a settings file the host itself ignores (not plain JSON) is skipped by the policy as by the host: said at
        // every event that consulted the policy, on stderr (the host's transcript and debug view), not only once in
        // the audit log
        for (const warning of toolgate.policy.current?.warnings ?? [])
          if (warning.code === "SETTINGS_IGNORED") onError(warning.message);
      }
    } catch (error) {
      return failClosed(errorText(error));
    }
  };
  const deciding = decide();
  const answer = await withinBudget(deciding, options.answerBudgetMs, () =>
    failClosed(`no decision within ${options.answerBudgetMs} ms (the store or the config did not answer in time)`),
  );
  if (runStopping !== undefined) await untilHostGone(options.holdAfterAbortMs ?? HOLD_AFTER_ABORT_MS, options.hostPid);
  const closing = (async () => {
    await deciding;
    await toolgate?.close();
  })().catch((error: unknown) => onError(`closing the store: ${String(error)}`));
  return {
    answer,
    async finish(finishOptions = {}) {
      const done = await withinBudget(
        closing.then(() => true),
        finishOptions.budgetMs,
        () => false,
      );
      return done;
    },
  };
}

/**
 * Ships what the hook events spooled into the store the config for `cwd` selects, within `budgetMs`, then closes
 * it: the work a SessionEnd (or a due spool) hands to a detached process (`toolgate-hook.cjs --drain`). Never
 * throws; what it could not ship stays in the spool for the next drain.
 */
export async function drainSpool(options: {
  hostName: string;
  cwd: string;
  env?: Record<string, string | undefined>;
  budgetMs: number;
  onError?: (message: string) => void;
}): Promise<{ replayed: number; failed: number }> {
  const onError = options.onError ?? ((message: string) => process.stderr.write(`toolgate: ${message}\n`));
  let toolgate: Toolgate | undefined;
  try {
    toolgate = await openToolgate({
      host: options.hostName,
      cwd: options.cwd,
      env: options.env ?? process.env,
      onError: (error, where) => onError(`${where}: ${errorText(error)}`),
      // a drain ships records and decides nothing: no permission file is read
      policyOnDemand: true,
    });
    return await toolgate.drain({ budgetMs: options.budgetMs });
  } catch (error) {
    onError(`draining the spool: ${errorText(error)}`);
    return { replayed: 0, failed: 0 };
  } finally {
    await toolgate?.close().catch((error: unknown) => onError(`closing the store: ${errorText(error)}`));
  }
}

/**
 * One command-hook process, for any command-hook host, answered after every delivery finished (tests and callers
 * that have no stdout of their own). The hook process itself uses `startHook` to answer first.
 */
export async function runHook<Input>(host: HookHost<Input>, options: RunHookOptions): Promise<HookAnswer> {
  const started = await startHook(host, options);
  await started.finish();
  return started.answer;
}

/** `work`'s value, or `fallback()` once `budgetMs` passed first (no budget: `work` alone). */
async function withinBudget<T>(work: Promise<T>, budgetMs: number | undefined, fallback: () => T): Promise<T> {
  if (budgetMs === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback()), budgetMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** The run's abort, when this process serves a `toolgate run` child and toolgate already aborted the run. */
function abortedRun(env: Readonly<Record<string, string | undefined>>): RunAbort | undefined {
  const directory = env[RUN_DIRECTORY_ENV];
  return directory === undefined ? undefined : runAbort(directory);
}

/**
 * Waits until the host is gone, or `budgetMs` passed: the process that started this one (this process is then
 * re-parented), or `hostPid` when given (it no longer exists).
 */
async function untilHostGone(budgetMs: number, hostPid: number | undefined): Promise<void> {
  const parent = process.ppid;
  const deadline = Date.now() + budgetMs;
  const present = hostPid === undefined ? () => process.ppid === parent : () => isAlive(hostPid);
  while (present() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, ORPHAN_POLL_MS));
  }
}

/** The event name of the parsed payload's top level (never a nested field), or undefined when it does not parse. */
function topLevelEventName(text: string): string | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
    const name = (value as Record<string, unknown>)["hook_event_name"];
    return typeof name === "string" ? name : undefined;
  } catch {
    return undefined;
  }
}
