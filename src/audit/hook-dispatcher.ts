import { createHash } from "node:crypto";
import type { HookEventName, HookOptions } from "../config/audit-schema.js";
import { compileToolGlobs } from "../core/tool-glob.js";
import { redactText } from "../detect/redact.js";
import { createSpool, type Spool } from "../store/spool.js";
import { postWebhook } from "./post-webhook.js";
import { deliveredPayload, type HookPayload } from "./record-payload.js";
import { runCommandHook } from "./run-command-hook.js";

/** One hook run for one payload. */
export interface HookOutcome {
  hook: string;
  event: string;
  key: string;
  ok: boolean;
  error?: string;
  durationMs: number;
  stdout?: string;
  stderr?: string;
}

interface CompiledHook {
  id: string;
  name: string;
  options: HookOptions;
  matchesEvent: (event: string) => boolean;
  matchesTool: (tool: string | null) => boolean;
}

export interface PendingDelivery {
  hookId: string;
  payload: HookPayload;
}

/**
 * New deliveries under way in this process that have not succeeded yet, with the spool each belongs to. A process
 * that exits before they finish (a hook process ends after its drain budget, whatever a hanging webhook does) keeps
 * them in their spool on the way out, so the next dispatch or `retryPending()` delivers them: at least once, never
 * lost.
 */
const unfinished = new Map<PendingDelivery, Spool<PendingDelivery[]>>();
let keepsOnExit = false;

function keepUnfinishedOnExit(): void {
  const bySpool = new Map<Spool<PendingDelivery[]>, PendingDelivery[]>();
  for (const [delivery, spool] of unfinished) bySpool.set(spool, [...(bySpool.get(spool) ?? []), delivery]);
  unfinished.clear();
  for (const [spool, deliveries] of bySpool) {
    try {
      spool.append(deliveries);
    } catch {
      // nowhere left to keep them (the spool directory is gone or full): the exit goes on
    }
  }
}

/**
 * Runs configured hooks for payloads: scoped by event and tool-name glob, in order per hook, at most `concurrency`
 * hooks at a time, each run bounded by the hook's timeout. Deliveries that fail are kept in the spool (when a directory is given) and retried
 * on the next dispatch or `retryPending()`; delivery is at-least-once, and every payload carries its
 * `idempotency_key` (also a webhook's `Idempotency-Key` header) for receivers to deduplicate on. Never throws.
 */
export function createHookDispatcher(options: {
  hooks: readonly HookOptions[];
  spoolDirectory?: string;
  concurrency?: number;
  onOutcome?: (outcome: HookOutcome) => void;
}) {
  const hooks = options.hooks.map(compileHook);
  const byId = new Map(hooks.map((hook) => [hook.id, hook]));
  const spool = options.spoolDirectory
    ? createSpool<PendingDelivery[]>({ directory: options.spoolDirectory, prefix: "hooks" })
    : undefined;
  const concurrency = options.concurrency ?? 4;

  async function runOne(delivery: PendingDelivery): Promise<boolean> {
    const hook = byId.get(delivery.hookId);
    if (!hook) return true; // the hook was removed from the config since: nothing left to deliver to
    // every delivery, a first one or a retry, carries the same idempotency_key: receivers deduplicate on it
    const payload = deliveredPayload(delivery.payload);
    const tool = "tool" in payload && payload.tool ? payload.tool : undefined;
    const key = payload.idempotency_key;
    const started = Date.now();
    let outcome: HookOutcome;
    if (hook.options.command !== undefined) {
      const result = await runCommandHook({
        command: hook.options.command,
        payload,
        event: payload.event,
        ...(tool === undefined ? {} : { tool }),
        timeoutMs: hook.options.timeoutMs,
      });
      outcome = {
        hook: hook.name,
        event: payload.event,
        key,
        ok: result.ok,
        durationMs: result.durationMs,
        stdout: result.stdout,
        stderr: result.stderr,
        ...(result.error === undefined ? {} : { error: result.error }),
      };
    } else {
      const result = await postWebhook({
        url: hook.options.url!,
        payload,
        idempotencyKey: key,
        timeoutMs: hook.options.timeoutMs,
        retries: hook.options.retries,
        ...(hook.options.headers === undefined ? {} : { headers: hook.options.headers }),
      });
      outcome = {
        hook: hook.name,
        event: payload.event,
        key,
        ok: result.ok,
        durationMs: Date.now() - started,
        ...(result.error === undefined ? {} : { error: result.error }),
      };
    }
    // what a hook printed or failed with goes to the logs: redacted like everything else toolgate writes
    for (const field of ["error", "stdout", "stderr"] as const) {
      const text = outcome[field];
      if (text !== undefined) outcome[field] = redactText(text);
    }
    try {
      options.onOutcome?.(outcome);
    } catch {
      // a throwing observer must not break delivery
    }
    return outcome.ok;
  }

  /**
   * Each hook gets its deliveries in order, one at a time; different hooks run concurrently. After a hook's first
   * failure the rest of its batch is kept without running, so one batch costs at most one timeout per hook.
   */
  async function runAll(
    deliveries: PendingDelivery[],
    options: { keepOnExit?: boolean } = {},
  ): Promise<PendingDelivery[]> {
    if (options.keepOnExit === true && spool !== undefined) {
      for (const delivery of deliveries) unfinished.set(delivery, spool);
      if (!keepsOnExit) {
        keepsOnExit = true;
        process.on("exit", keepUnfinishedOnExit);
      }
    }
    try {
      return await runQueues(deliveries);
    } finally {
      for (const delivery of deliveries) unfinished.delete(delivery);
    }
  }

  async function runQueues(deliveries: PendingDelivery[]): Promise<PendingDelivery[]> {
    const byHook = new Map<string, PendingDelivery[]>();
    for (const delivery of deliveries) {
      const queue = byHook.get(delivery.hookId) ?? [];
      queue.push(delivery);
      byHook.set(delivery.hookId, queue);
    }
    const queues = [...byHook.values()];
    const failed: PendingDelivery[] = [];
    let next = 0;
    const worker = async () => {
      while (next < queues.length) {
        const queue = queues[next++]!;
        for (const [index, delivery] of queue.entries()) {
          if (!(await runOne(delivery))) {
            failed.push(...queue.slice(index));
            break;
          }
          unfinished.delete(delivery);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(concurrency, queues.length) }, worker));
    return failed;
  }

  return {
    /** hooks that would fire for this event and tool */
    matching(event: HookEventName | string, tool: string | null): string[] {
      return hooks.filter((hook) => hook.matchesEvent(event) && hook.matchesTool(tool)).map((hook) => hook.id);
    },
    /** Runs every matching hook for each payload (in order per hook), retrying spooled deliveries first. */
    async dispatch(payloads: readonly HookPayload[]): Promise<{ delivered: number; failed: number }> {
      if (hooks.length === 0) return { delivered: 0, failed: 0 };
      const retried = await this.retryPending();
      const deliveries: PendingDelivery[] = [];
      for (const payload of payloads) {
        const tool = "tool" in payload ? payload.tool : null;
        for (const hookId of this.matching(payload.event, tool)) deliveries.push({ hookId, payload });
      }
      // kept in the spool if this process exits first; replayed ones stay in their claimed spool file meanwhile
      const failed = await runAll(deliveries, { keepOnExit: true });
      if (failed.length > 0) spool?.append(failed);
      return { delivered: deliveries.length - failed.length + retried.delivered, failed: failed.length };
    },
    /** Re-runs deliveries kept from earlier failures; the ones that fail again stay kept. */
    async retryPending(): Promise<{ delivered: number; failed: number }> {
      if (!spool?.hasPending()) return { delivered: 0, failed: 0 };
      let delivered = 0;
      let failedAgain = 0;
      await spool.replay(async (batches) => {
        const failed = await runAll(batches.flat());
        delivered += batches.flat().length - failed.length;
        failedAgain += failed.length;
        if (failed.length > 0) spool.append(failed);
      });
      return { delivered, failed: failedAgain };
    },
    pending(): PendingDelivery[] {
      return spool?.pending().flat() ?? [];
    },
  };
}

function compileHook(options: HookOptions): CompiledHook {
  const target = options.command ?? options.url ?? "";
  const events = new Set<string>(options.events);
  const tools = options.tools ? compileToolGlobs(options.tools) : undefined;
  return {
    // Stable across processes and restarts, so spooled deliveries find their hook again.
    id: createHash("sha256")
      .update(JSON.stringify([options.name ?? "", target, options.events, options.tools ?? []]))
      .digest("hex")
      .slice(0, 16),
    name: options.name ?? displayName(options),
    options,
    matchesEvent: (event) => events.has("*") || events.has(event),
    matchesTool: (tool) => tools === undefined || (tool !== null && tools(tool)),
  };
}

/**
 * a hook's name for logs without secrets a command line or URL may carry: no query string, and redacted (a token in
 * the path of a Slack webhook URL, a `TOKEN=...` prefix before the command)
 */
function displayName(options: HookOptions): string {
  if (options.url !== undefined) {
    const url = new URL(options.url);
    return redactText(`${url.origin}${url.pathname}`);
  }
  return redactText(`command ${options.command?.trim().split(/\s+/)[0] ?? ""}`);
}
