/**
 * Bounded retry with exponential backoff and jitter-free, deterministic delays (tests can reason about the bound).
 * Used for locked databases (SQLITE_BUSY after busy_timeout) and transient Postgres errors.
 */
export async function withRetry<T>(
  operation: () => T | Promise<T>,
  options: { attempts: number; baseDelayMs: number; isRetryable: (error: unknown) => boolean },
): Promise<T> {
  let delay = options.baseDelayMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await operation();
    } catch (error) {
      if (attempt >= options.attempts || !options.isRetryable(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
}
