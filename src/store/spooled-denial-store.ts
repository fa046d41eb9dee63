import type { AuditEvent, DenialRecord } from "../core/records.js";
import type { DenialStore } from "./ports.js";
import { createSpool, type Spool } from "./spool.js";

export type SpoolBatch = { kind: "denials"; records: DenialRecord[] } | { kind: "events"; events: AuditEvent[] };

/**
 * A DenialStore that never loses a write and never blocks a decision on a broken store: writes go to the store
 * (opened lazily) within `timeoutMs`; when it is unreachable, slow or failing, the batch goes to the local spool
 * instead, and the store is not tried again for `retryAfterMs`. After the next successful write the spool is
 * replayed into the store (denials are idempotent on (session, seq), so a replay never duplicates them).
 * Reads go to the store and throw when it is unavailable.
 */
export function createSpooledDenialStore(options: {
  open: () => Promise<DenialStore>;
  spoolDirectory: string;
  timeoutMs?: number;
  retryAfterMs?: number;
  onError?: (error: unknown) => void;
  clock?: () => number;
}): DenialStore & { readonly spool: Spool<SpoolBatch>; replay(): Promise<{ replayed: number; failed: number }> } {
  const spool = createSpool<SpoolBatch>({ directory: options.spoolDirectory, prefix: "denials" });
  const timeoutMs = options.timeoutMs ?? 5_000;
  const retryAfterMs = options.retryAfterMs ?? 5_000;
  const clock = options.clock ?? Date.now;
  let opening: Promise<DenialStore> | undefined;
  let brokenUntil = 0;

  const store = (): Promise<DenialStore> => {
    opening ??= options.open().catch((error) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const deliver = async (batch: SpoolBatch, target: DenialStore) => {
    if (batch.kind === "denials") await target.append(batch.records);
    else await target.appendEvents(batch.events);
  };
  const replay = async () => {
    const target = await store();
    return spool.replay(async (batches) => {
      for (const batch of batches) await deliver(batch, target);
    });
  };
  async function write(batch: SpoolBatch): Promise<void> {
    if (clock() < brokenUntil) {
      spool.append(batch);
      return;
    }
    try {
      await withTimeout((async () => deliver(batch, await store()))(), timeoutMs);
    } catch (error) {
      brokenUntil = clock() + retryAfterMs;
      spool.append(batch);
      options.onError?.(error);
      return;
    }
    if (spool.hasPending()) {
      await replay().catch((error) => options.onError?.(error));
    }
  }
  const read = async <T>(fn: (target: DenialStore) => Promise<T>) => fn(await store());
  return {
    spool,
    replay,
    async append(records) {
      if (records.length > 0) await write({ kind: "denials", records: [...records] });
    },
    async appendEvents(events) {
      if (events.length > 0) await write({ kind: "events", events: [...events] });
    },
    query: (query) => read((target) => target.query(query)),
    queryEvents: (query) => read((target) => target.queryEvents(query)),
    report: (query) => read((target) => target.report(query)),
    scrub: (redact) => read((target) => target.scrub(redact)),
    prune: (before) => read((target) => target.prune(before)),
    async close() {
      if (opening) await (await opening.catch(() => undefined))?.close();
    },
  };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`store write timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
