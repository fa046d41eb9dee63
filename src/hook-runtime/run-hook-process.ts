import { HOOK_ANSWER_BUDGET_MS, HOOK_DRAIN_BUDGET_MS } from "./hook-budgets.js";
import { HOOK_HOST_NAMES, hookHostLoader } from "./hook-hosts.js";
import { readHookStdin } from "./read-hook-stdin.js";
import { startHook } from "./run-hook.js";
import { writeAll, writeHookAnswer } from "./write-hook-answer.js";

export interface HookProcessOptions {
  /** the host named on the command line (`toolgate hook <host>`): a registered host with a hook host */
  hostName: string | undefined;
  /** the event named on the command line (`toolgate hook <host> <event>`), for a host whose payload does not name it */
  eventName?: string;
  env?: Record<string, string | undefined>;
  /** the event text; default: all of stdin, read synchronously */
  stdinText?: string;
  /** where the answer goes; default: descriptors 1 and 2 */
  descriptors?: { stdout: number; stderr: number };
  answerBudgetMs?: number;
  drainBudgetMs?: number;
  /** told the exit code once the answer is written (a later crash must exit with it, not change the outcome) */
  onAnswered?: (exitCode: 0 | 1 | 2) => void;
  /** hands a due drain to another process (see `RunHookOptions.deferDrain`); default: drained in this one */
  deferDrain?: (where: { hostName: string; cwd: string }) => void;
}

/**
 * One command-hook process, as `toolgate hook <host>` and the bundled hook entry run it: read the event, answer it
 * (written at once, before any delivery is waited for), then wait for deliveries within the drain budget. Returns
 * the exit code for the host (0 answered, 1 non-blocking error, 2 blocking: an unknown host or a failure before
 * the host's own fail-closed answer exists). The caller exits with it, so a delivery still hanging after the
 * budget cannot keep the process alive.
 */
export async function runHookProcess(options: HookProcessOptions): Promise<0 | 1 | 2> {
  const descriptors = options.descriptors ?? { stdout: 1, stderr: 2 };
  const fail = (message: string): 2 => {
    // Exit 2 is what every command-hook host treats as blocking: a hook that cannot run never lets a call through.
    writeAll(descriptors.stderr, `${message}\n`);
    return 2;
  };
  const load = options.hostName === undefined ? undefined : hookHostLoader(options.hostName);
  if (load === undefined) {
    return fail(
      `toolgate hook: unknown host ${JSON.stringify(options.hostName ?? "")}. Supported: ${HOOK_HOST_NAMES.join(", ")}. Example: toolgate hook ${HOOK_HOST_NAMES[0] ?? "<host>"}`,
    );
  }
  try {
    const stdinText = options.stdinText ?? readHookStdin();
    const host = await load();
    const started = await startHook(host, {
      stdinText,
      ...(options.eventName === undefined ? {} : { eventName: options.eventName }),
      ...(options.env === undefined ? {} : { env: options.env }),
      answerBudgetMs: options.answerBudgetMs ?? HOOK_ANSWER_BUDGET_MS,
      ...(options.deferDrain === undefined ? {} : { deferDrain: options.deferDrain }),
      onError: (message) => writeAll(descriptors.stderr, `toolgate: ${message}\n`),
    });
    writeHookAnswer(started.answer, descriptors);
    options.onAnswered?.(started.answer.exitCode);
    const budgetMs = options.drainBudgetMs ?? HOOK_DRAIN_BUDGET_MS;
    if (!(await started.finish({ budgetMs }))) {
      writeAll(
        descriptors.stderr,
        `toolgate: deliveries still under way ${budgetMs} ms after the answer; exiting (undelivered hook deliveries stay in the spool for the next event)\n`,
      );
    }
    return started.answer.exitCode;
  } catch (error) {
    return fail(`toolgate hook ${options.hostName}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
