import type { HookOptions } from "../config/audit-schema.js";
import type { Effect } from "../core/effects.js";
import type { AuditEvent, DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import type { DenialStore } from "../store/ports.js";
import type { AuditLogger } from "./audit-logger.js";
import { createHookDispatcher, type HookOutcome } from "./hook-dispatcher.js";
import { auditEventPayload, denialPayload, type HookPayload } from "./record-payload.js";

export interface AuditListeners {
  /** each denial record as soon as it exists */
  denial?: (record: DenialRecord) => void;
  /** each audit event (escalation, grant, nudge, abort, loop verdict, session summary) */
  event?: (event: AuditEvent) => void;
  /** the per-turn batch (turn ended, errored, cancelled, or session ended) */
  flush?: (batch: { reason: string; records: DenialRecord[]; lost: number }) => void;
}

export interface AuditSinkOptions {
  /** where records and events are written (wrap with createSpooledDenialStore so outages spool) */
  denialStore?: DenialStore;
  hooks?: readonly HookOptions[];
  /** failed hook deliveries wait here and are retried (none: failures are only logged) */
  hookSpoolDirectory?: string;
  logger?: AuditLogger;
  /** per-denial OpenTelemetry recorder (createOpenTelemetryRecorder): the denials and audit events of one delivery */
  openTelemetry?: (batch: { records: readonly DenialRecord[]; events: readonly AuditEvent[] }) => void;
  listeners?: AuditListeners[];
  onHookOutcome?: (outcome: HookOutcome) => void;
  onError?: (error: unknown, where: string) => void;
}

/**
 * The guard's audit sink: takes each step's effects and sends them out. Records and events go to the store, log
 * lines and OpenTelemetry at once; per-denial hooks run once per turn from `flush` effects (including a turn that
 * errored or was cancelled, and session end), other hooks per audit event. Every part is isolated: a failure is
 * reported through `onError` and never reaches the caller; the guard bounds how long it waits.
 */
export function createAuditSink(options: AuditSinkOptions) {
  const onError = options.onError ?? (() => undefined);
  const dispatcher = createHookDispatcher({
    hooks: options.hooks ?? [],
    ...(options.hookSpoolDirectory === undefined ? {} : { spoolDirectory: options.hookSpoolDirectory }),
    onOutcome: (outcome) => {
      options.logger?.hookOutcome(outcome);
      options.onHookOutcome?.(outcome);
    },
  });
  const listeners = [...(options.listeners ?? [])];
  // no hook configured: no payload is built, and a turn's records evicted from the core's buffer are not read back
  // from the store for them (that read drains the spool into the store: a first Stop recording hundreds of a long
  // transcript's refusals opened SQLite for nothing)
  const hooked = (options.hooks ?? []).length > 0;
  const isolate = (where: string, fn: () => void) => {
    try {
      fn();
    } catch (error) {
      onError(error, where);
    }
  };

  async function deliver(effects: readonly Effect[], _session?: { sessionId: string; state: SessionState }) {
    const records: DenialRecord[] = [];
    const events: AuditEvent[] = [];
    const payloads: HookPayload[] = [];
    const flushes: Extract<Effect, { type: "flush" }>[] = [];
    for (const effect of effects) {
      if (effect.type === "record") records.push(effect.record);
      else if (effect.type === "audit") {
        events.push(effect.event);
        if (hooked && effect.event.kind !== "denial.recorded") payloads.push(auditEventPayload(effect.event));
      } else if (effect.type === "flush") flushes.push(effect);
    }
    if (options.logger) isolate("audit log", () => options.logger!.effects(effects));
    if (options.openTelemetry) isolate("OpenTelemetry", () => options.openTelemetry!({ records, events }));
    for (const listener of listeners) {
      for (const record of records) if (listener.denial) isolate("audit listener", () => listener.denial!(record));
      for (const event of events) if (listener.event) isolate("audit listener", () => listener.event!(event));
      for (const flush of flushes)
        if (listener.flush)
          isolate("audit listener", () =>
            listener.flush!({ reason: flush.reason, records: flush.records, lost: flush.lost }),
          );
    }
    const storing = (async () => {
      if (!options.denialStore) return;
      await options.denialStore.append(records);
      await options.denialStore.appendEvents(events);
    })().catch((error) => onError(error, "denial store"));
    await storing;
    for (const flush of hooked ? flushes : []) {
      const batch = await withEvicted(flush, options.denialStore).catch((error) => {
        onError(error, "denial store");
        return flush.records;
      });
      payloads.push(...batch.map(denialPayload));
    }
    if (payloads.length > 0) await dispatcher.dispatch(payloads).catch((error) => onError(error, "audit hooks"));
  }

  return {
    deliver,
    /** add an in-process listener; returns the function that removes it */
    subscribe(listener: AuditListeners): () => void {
      listeners.push(listener);
      return () => {
        const index = listeners.indexOf(listener);
        if (index >= 0) listeners.splice(index, 1);
      };
    },
    /** retry hook deliveries kept from earlier failures */
    retryPendingHooks: () => dispatcher.retryPending(),
    pendingHooks: () => dispatcher.pending(),
  };
}

/** The audit trail's sink: the guard's `AuditSink` port plus in-process listeners and the hook spool. */
export type AuditTrailSink = ReturnType<typeof createAuditSink>;

/**
 * Records evicted from the core's bounded buffer before their flush are still in the store (each was written when
 * it was created), so the hooks get them too instead of a lower-bound count.
 */
async function withEvicted(
  flush: Extract<Effect, { type: "flush" }>,
  store: DenialStore | undefined,
): Promise<DenialRecord[]> {
  if (flush.lost === 0 || !store) return flush.records;
  const sessionId = flush.records[0]?.sessionId;
  if (sessionId === undefined) return flush.records;
  const first = flush.highWaterMark - flush.records.length - flush.lost + 1;
  const last = flush.highWaterMark - flush.records.length;
  const stored = (await store.query({ sessionId })).filter((record) => record.seq >= first && record.seq <= last);
  const evicted = stored.map(({ id, ...record }) => record).sort((a, b) => a.seq - b.seq);
  return [...evicted, ...flush.records];
}
