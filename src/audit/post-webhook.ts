export interface WebhookResult {
  ok: boolean;
  status?: number;
  attempts: number;
  error?: string;
  durationMs: number;
}

/**
 * POSTs a JSON payload with a per-attempt timeout and bounded retries (doubling backoff from `backoffMs`) on
 * network errors, timeouts, 429 and 5xx. Other 4xx answers are final. Sends `Idempotency-Key` so receivers can
 * drop the duplicates at-least-once delivery allows. Never throws.
 */
export async function postWebhook(options: {
  url: string;
  payload: unknown;
  idempotencyKey: string;
  timeoutMs: number;
  retries: number;
  backoffMs?: number;
  headers?: Record<string, string>;
}): Promise<WebhookResult> {
  const started = Date.now();
  let delay = options.backoffMs ?? 250;
  let last: { status?: number; error: string } = { error: "not sent" };
  const body = JSON.stringify(options.payload);
  let attempts = 0;
  for (let attempt = 1; attempt <= options.retries + 1; attempt++) {
    attempts = attempt;
    try {
      const response = await fetch(options.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "toolgate",
          "idempotency-key": options.idempotencyKey,
          ...options.headers,
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok)
        return { ok: true, status: response.status, attempts: attempt, durationMs: Date.now() - started };
      last = { status: response.status, error: `HTTP ${response.status}` };
      if (response.status < 500 && response.status !== 429) break;
    } catch (error) {
      const name = (error as Error).name;
      last = {
        error:
          name === "TimeoutError"
            ? `timed out after ${options.timeoutMs} ms`
            : ((error as Error).message ?? String(error)),
      };
    }
    if (attempt <= options.retries) {
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
  }
  return {
    ok: false,
    ...(last.status === undefined ? {} : { status: last.status }),
    attempts,
    error: last.error,
    durationMs: Date.now() - started,
  };
}
