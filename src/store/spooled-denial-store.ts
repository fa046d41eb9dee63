import { hash53 } from "../core/hash.js";
import { type AuditEvent, type DenialRecord, type IdentifiedDenialRecord, withToolIdentity } from "../core/records.js";
import type { DenialStore, KeyedAuditEvent, StoredDenial } from "./ports.js";
import { createSpool, type Spool } from "./spool.js";

export type SpoolBatch = { kind: "denials"; records: DenialRecord[] } | { kind: "events"; events: KeyedAuditEvent[] };

export interface DrainOptions {
  /**
   * stop claiming spool files after this many milliseconds (a Stop or SessionEnd hook that must answer within its
   * host's timeout); what is left waits for the next drain. Each delivery is bounded by `timeoutMs` either way.
   */
  budgetMs?: number;
}

export interface SpooledDenialStore extends DenialStore {
  readonly spool: Spool<SpoolBatch>;
  /** ships every spooled batch to the store; throws when the store cannot be opened */
  replay(): Promise<{ replayed: number; failed: number }>;
  /**
   * Ships every spooled batch to the store, each within `timeoutMs`; never throws (failures go to `onError` and
   * the batches stay spooled). Safe to call from any process at any time: files are claimed by rename and
   * delivery is idempotent. The composition root calls it off the hot path (`report`, `tail`, `run`, Stop,
   * SessionEnd, a non-gating event).
   */
  drain(options?: DrainOptions): Promise<{ replayed: number; failed: number }>;
  /** the records waiting in the spool, each with its tool identity (filled from the table for an older spool) */
  pendingRecords(): IdentifiedDenialRecord[];
  /**
   * A session's records as they stand: the store's rows and the records waiting in the spool, each once (a waiting
   * record has id 0). Unlike `query`, it neither ships the spool first nor waits for a delivery another process has
   * under way (`Spool.settledPending`), so a gating event that asks which of its session's calls are recorded pays
   * the store's read alone, never another session's backlog or a drain's lock. Throws when the store cannot be read
   * (`pendingRecords()` then shows what waits).
   */
  sessionRecords(sessionId: string): Promise<StoredDenial[]>;
  pendingEvents(): AuditEvent[];
}

/**
 * A DenialStore that never loses a write and never blocks a decision on a broken store.
 *
 * `mode: "spool-first"` (the hook's hot path): `append`/`appendEvents` only write the local spool (one small file,
 * renamed into place) and return; `drain()` ships the spool to the store later, off the hot path.
 *
 * `mode: "store-first"` (default, in-process hosts): a write goes to the store (opened lazily) within
 * `timeoutMs`; when the store is unreachable, slow or failing, the batch goes to the spool instead and the store
 * is not tried again for `retryAfterMs`. After the next successful write the spool is drained.
 *
 * Either way, delivery is exactly once: denial records carry their identity (session, seq, at, tool-use id), and
 * each audit event gets an `eventKey` minted here, before the first attempt, and kept in the spool, so a batch
 * delivered twice (a write that timed out but committed, a drainer that died before deleting its claim) is stored
 * once. Reads (`query`, `report`, …) drain first (bounded by `timeoutMs`) and wait, as long again at most, for
 * batches another process has claimed and is shipping, then read the store, so what was spooled is visible as
 * soon as the store is reachable; they throw when it is not (`pendingRecords()` then shows what waits).
 */
export function createSpooledDenialStore(options: {
  open: () => Promise<DenialStore>;
  /**
   * whether the store surely holds no row yet (a SQLite file not created): then `sessionRecords` answers from the
   * spool without opening (and so creating) the store
   */
  holdsNothing?: () => boolean;
  spoolDirectory: string;
  mode?: "store-first" | "spool-first";
  timeoutMs?: number;
  retryAfterMs?: number;
  onError?: (error: unknown) => void;
  clock?: () => number;
}): SpooledDenialStore {
  const spool = createSpool<SpoolBatch>({ directory: options.spoolDirectory, prefix: "denials" });
  const spoolFirst = options.mode === "spool-first";
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
  /** the store, opened within `timeoutMs`; an open that hangs is abandoned (and closed if it ever completes) */
  const storeWithin = async (): Promise<DenialStore> => {
    const attempt = store();
    try {
      return await withTimeout(attempt, timeoutMs, "opening the store");
    } catch (error) {
      if (opening === attempt) {
        opening = undefined;
        attempt
          .then(
            (late) => late.close(),
            () => undefined,
          )
          .catch(() => undefined);
      }
      throw error;
    }
  };
  const deliver = async (batch: SpoolBatch, target: DenialStore) => {
    if (batch.kind === "denials") await target.append(batch.records);
    else await target.appendEvents(batch.events);
  };
  const replay = async (drainOptions: DrainOptions = {}) => {
    const until = drainOptions.budgetMs === undefined ? undefined : Date.now() + drainOptions.budgetMs;
    const target = await storeWithin();
    return spool.replay(
      async (batches) => {
        await withTimeout(
          (async () => {
            for (const batch of batches) await deliver(batch, target);
          })(),
          timeoutMs,
          "a spool delivery",
        );
      },
      until === undefined ? {} : { until },
    );
  };
  const drain = async (drainOptions: DrainOptions = {}) => {
    if (!spool.hasPending()) return { replayed: 0, failed: 0 };
    try {
      return await replay(drainOptions);
    } catch (error) {
      options.onError?.(error);
      return { replayed: 0, failed: pendingBatches().length };
    }
  };
  const pendingBatches = () => spool.pending();
  async function write(batch: SpoolBatch): Promise<void> {
    if (spoolFirst || clock() < brokenUntil) {
      spool.append(batch, tagOf(batch));
      return;
    }
    try {
      await withTimeout((async () => deliver(batch, await storeWithin()))(), timeoutMs, "a store write");
    } catch (error) {
      brokenUntil = clock() + retryAfterMs;
      spool.append(batch, tagOf(batch));
      options.onError?.(error);
      return;
    }
    if (spool.hasPending()) await drain();
  }
  const read = async <T>(fn: (target: DenialStore) => Promise<T>) => {
    await drain();
    // a batch another process is shipping right now (claimed, not yet committed) is waited for, not left out
    if ((await spool.claimsReleased({ budgetMs: timeoutMs })) === "released" && spool.hasPending()) {
      await drain();
    }
    return fn(await storeWithin());
  };
  return {
    spool,
    replay: () => replay(),
    drain,
    pendingRecords: () =>
      pendingBatches().flatMap((batch) => (batch.kind === "denials" ? batch.records.map(withToolIdentity) : [])),
    pendingEvents: () => pendingBatches().flatMap((batch) => (batch.kind === "events" ? batch.events : [])),
    async sessionRecords(sessionId) {
      // the spool first: a batch delivered after this read is in the store by the time the store is read
      const quoted = JSON.stringify(sessionId);
      const waiting = spool.settledPending({ tag: sessionTag(sessionId), keepLine: (line) => line.includes(quoted) });
      if (waiting === undefined) {
        const rows = await read((target) => target.query({ sessionId }));
        return onceEach([...rows, ...waitingRecords(pendingBatches(), sessionId)]);
      }
      // checked after the spool's read: a batch delivered before the check made the store, one after it was read
      const rows = options.holdsNothing?.() ? [] : await (await storeWithin()).query({ sessionId });
      return onceEach([...rows, ...waitingRecords(waiting, sessionId)]);
    },
    async append(records) {
      if (records.length > 0) await write({ kind: "denials", records: [...records] });
    },
    async appendEvents(events) {
      if (events.length > 0) await write({ kind: "events", events: events.map(withEventKey) });
    },
    query: (query) => read((target) => target.query(query)),
    queryEvents: (query) => read((target) => target.queryEvents(query)),
    report: (query) => read((target) => target.report(query)),
    sessionIds: (query) => read((target) => target.sessionIds(query)),
    sessionInfo: (sessionIds) => read((target) => target.sessionInfo(sessionIds)),
    scrub: (redact) => read((target) => target.scrub(redact)),
    scrubSessionInfo: (redactText) => read((target) => target.scrubSessionInfo(redactText)),
    prune: (before) => read((target) => target.prune(before)),
    async close() {
      const pending = opening;
      if (pending === undefined) return;
      opening = undefined;
      // an open still under way (a server that accepts and never answers) is not waited for: it is closed when it
      // completes, so a short-lived process (a hook) exits after its answer instead of after the driver's own timeout
      const settled = await Promise.race([
        pending.then(
          (open) => ({ open }),
          () => ({ open: undefined }),
        ),
        new Promise<undefined>((resolve) => setImmediate(() => resolve(undefined))),
      ]);
      if (settled === undefined) {
        pending.then((late) => late.close()).catch(() => undefined);
        return;
      }
      await settled.open?.close();
    },
  };
}

/**
 * A batch file's tag (`Spool.append`): `e` for audit events, `s<hash of the session id>` for records of one
 * session (a hook event's), none for records of several; so a session's records are read from its own files and
 * those of no session in particular (a hash both share only costs a file read).
 */
function tagOf(batch: SpoolBatch): string | undefined {
  if (batch.kind === "events") return "e";
  const [first, ...rest] = batch.records;
  if (first === undefined || rest.some((record) => record.sessionId !== first.sessionId)) return undefined;
  return sessionTag(first.sessionId);
}

const sessionTag = (sessionId: string) => `s${hash53(sessionId)}`;

/** the records of `sessionId` in spooled batches, as rows not yet stored (id 0) */
function waitingRecords(batches: readonly SpoolBatch[], sessionId: string): StoredDenial[] {
  return batches.flatMap((batch) =>
    batch.kind === "denials"
      ? batch.records
          .filter((record) => record.sessionId === sessionId)
          .map((record) => ({ ...withToolIdentity(record), id: 0 }))
      : [],
  );
}

/**
 * Each record once, by the identity the stores keep unique (session, seq, at, tool-use id): a batch can be in the
 * store and still in the spool while its deliverer deletes its claim. The stored row is kept.
 */
function onceEach(rows: readonly StoredDenial[]): StoredDenial[] {
  const seen = new Set<string>();
  return rows.filter((row) => {
    const identity = JSON.stringify([row.sessionId, row.seq, row.at, row.toolUseId]);
    if (seen.has(identity)) return false;
    seen.add(identity);
    return true;
  });
}

let minted = 0;

/** an event's delivery identity: minted once, before the first attempt, and kept in the spool */
function withEventKey(event: KeyedAuditEvent): KeyedAuditEvent {
  if (event.eventKey !== undefined) return event;
  const key = `${Date.now().toString(36)}-${process.pid}-${(minted++).toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
  return { ...event, eventKey: key };
}

function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${timeoutMs} ms`)), timeoutMs);
    timer.unref?.();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
