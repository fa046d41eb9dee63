/** How long toolgate waits for the app's decider (and a tool's own `needsApproval`) by default. */
export const DEFAULT_DECIDER_TIMEOUT_MS = 5_000;

/**
 * The app's answer about one call, or an error once `timeoutMs` passed without one (house invariant 8: a gating
 * answer within a fixed time): the signal handed to `ask` is aborted then, and the caller refuses the call. A
 * synchronous throw becomes a rejection. The timer is cleared as soon as the answer comes.
 */
export function answerWithin<T>(options: {
  /** what is asked, for the error: `the decider` */
  what: string;
  timeoutMs: number;
  ask: (signal: AbortSignal) => T | PromiseLike<T>;
}): Promise<T> {
  const { what, timeoutMs } = options;
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(
        `${what} did not answer within ${timeoutMs} ms (deciderTimeoutMs), so the call is denied`,
      );
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  const answer = (async () => options.ask(controller.signal))();
  return Promise.race([answer, expired]).finally(() => clearTimeout(timer));
}
