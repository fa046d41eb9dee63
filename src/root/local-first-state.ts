import type { CompiledConfig } from "../core/config.js";
import { ToolgateError } from "../core/errors.js";
import type { ToolCall } from "../core/events.js";
import { RECORD_STRING_LIMIT } from "../core/on-call-denied.js";
import type { DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import { truncateStrings } from "../core/truncate-strings.js";
import type { DecideResult, GuardSessionOptions } from "../guard/types.js";
import type { DenialStore, SessionStateStore, StoredDenial } from "../store/ports.js";
import type { SpooledDenialStore } from "../store/spooled-denial-store.js";
import { rebuildSessionState } from "./rebuild-session-state.js";

/** how long a rebuild may wait for the store's records before it uses the spool's alone (the event is gating) */
const RECOVERY_READ_MS = 1_000;

/** the session's records from the store and the spool, or from the spool alone when the store does not answer in time */
async function recordsWithin(
  denials: SpooledDenialStore,
  sessionId: string,
  budgetMs: number,
  onError: OnError,
): Promise<DenialRecord[]> {
  const spooled = () => denials.pendingRecords().filter((record) => record.sessionId === sessionId);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), budgetMs);
    timer.unref?.();
  });
  const read = withPendingRecords(denials, onError).query({ sessionId });
  read.catch(() => undefined);
  try {
    const result = await Promise.race([read, late]);
    if (result !== "late") return result;
    onError?.(new Error(`the store did not answer within ${budgetMs} ms`), "rebuilding session state (spool only)");
    return spooled();
  } finally {
    clearTimeout(timer);
  }
}

/** how long a process stops waiting for a session lock that already made it wait its whole budget */
const LOCKED_RETRY_AFTER_MS = 5_000;

type OnError = ((error: unknown, where: string) => void) | undefined;

/**
 * The denial store as the guard reads it on the local-first path (`recordedCallIds`: which calls a transcript
 * shows that are already recorded): the store plus what still waits in the spool, or only the spool when the store
 * cannot be opened, so a Stop event never fails or double-records because the store is down. A session's records
 * are read as they stand (`sessionRecords`: no drain first, so a gating event never ships other sessions' backlog
 * or waits on another process's delivery); any other query drains first, as the store's own `query` does.
 */
export function withPendingRecords(denials: SpooledDenialStore, onError: OnError): Pick<DenialStore, "query"> {
  return {
    async query(query = {}) {
      const pending = (): StoredDenial[] =>
        denials
          .pendingRecords()
          .filter((record) => query.sessionId === undefined || record.sessionId === query.sessionId)
          .map((record) => ({ ...record, id: 0 }));
      try {
        const { sessionId, ...rest } = query;
        if (sessionId !== undefined && Object.keys(rest).length === 0) return await denials.sessionRecords(sessionId);
        return [...(await denials.query(query)), ...pending()];
      } catch (error) {
        onError?.(error, "denial store (reading the spool instead)");
        return pending();
      }
    },
  };
}

/**
 * The session state files, recovering a session whose file was unreadable: the update that finds it still fails
 * (the caller answers fail-closed) and the file store has moved it aside; before the error goes on, the session's
 * state is rebuilt from its denial records (the store's and the spool's) and written, so the refusal that follows
 * and every later event count on from the recovered counts instead of from zero. Recovery is best effort: when
 * the records cannot be read the session starts from no state, which can only delay an escalation. A session
 * whose lock stayed held past its budget is refused at once for the next few seconds in this process, so one
 * event never waits the lock budget twice.
 */
export function recoveringStateStore(options: {
  files: SessionStateStore;
  denials: SpooledDenialStore;
  /** the core's compiled config and the session's options (known once the guard and the session exist) */
  context: () => { config: CompiledConfig; sessions: Map<string, GuardSessionOptions> } | undefined;
  onError: OnError;
}): SessionStateStore {
  const { files } = options;
  const recover = async (sessionId: string) => {
    const context = options.context();
    const session = context?.sessions.get(sessionId);
    if (context === undefined || session === undefined) return;
    const records = await recordsWithin(options.denials, sessionId, RECOVERY_READ_MS, options.onError);
    if (records.length === 0) return;
    const rebuilt = rebuildSessionState({
      sessionId,
      interactive: session.interactive,
      ...(session.host === undefined ? {} : { host: session.host }),
      records,
      config: context.config,
    });
    // another process may have started the session again meanwhile: its state wins
    await files.update(sessionId, (current) => (current ?? rebuilt) as SessionState);
    options.onError?.(
      new Error(
        `rebuilt the state of session ${JSON.stringify(sessionId.slice(0, 100))} from ${records.length} records`,
      ),
      "session state",
    );
  };
  // a lock that stayed held past its budget: updates of the session asked for after that (the guard recording its
  // fail-closed refusal) fail at once for a while instead of waiting the budget again, so the answer comes after one
  // wait; updates asked for earlier (queued in this process behind the one that failed) still wait their own turn
  const locked = new Map<string, { error: unknown; since: number; until: number }>();
  return {
    get: (sessionId) => files.get(sessionId),
    delete: (sessionId) => files.delete(sessionId),
    close: () => files.close(),
    async update(sessionId, fn) {
      const asked = Date.now();
      const held = locked.get(sessionId);
      if (held !== undefined && asked >= held.since && asked < held.until) throw held.error;
      try {
        return await files.update(sessionId, fn);
      } catch (error) {
        if (ToolgateError.is(error) && error.data?.reason === "state-locked") {
          const now = Date.now();
          locked.set(sessionId, { error, since: now, until: now + LOCKED_RETRY_AFTER_MS });
        }
        if (ToolgateError.is(error) && error.code === "STORE_CORRUPT" && error.data?.quarantined !== undefined) {
          await recover(sessionId).catch((recoverError: unknown) =>
            options.onError?.(recoverError, "rebuilding session state from its records"),
          );
        }
        throw error;
      }
    },
  };
}

/**
 * A call refused fail-closed (`internal`) whose refusal the guard could not record, because the state store that
 * records it is what failed (a read-only or full state directory, a lock held past its budget): the record goes
 * to the spool directly, so the refusal is still kept and reported. Its `seq` is 0 (the session's count was not
 * reachable) and its turn unknown (0); its identity (session, seq, at, tool-use id) stays unique.
 */
export function spoolUnrecordedRefusal(options: {
  denials: SpooledDenialStore;
  config: CompiledConfig;
  session: GuardSessionOptions | undefined;
  sessionId: string;
  call: ToolCall;
  result: DecideResult;
  onError: OnError;
}): void {
  const { result, call, config } = options;
  if (result.decision.behavior !== "deny" || result.decision.denialSource !== "internal") return;
  if (result.effects.some((effect) => effect.type === "record")) return;
  const facts = config.ports.describeCall(call.tool, call.input);
  const at = Date.now();
  const record: DenialRecord = {
    seq: 0,
    sessionId: options.sessionId,
    turn: 0,
    tool: call.tool,
    toolUseId: call.toolUseId,
    source: "internal",
    reason: config.ports.redactText(result.decision.reason),
    signature: facts.signature,
    pattern: facts.pattern,
    inputSummary: facts.summary.slice(0, 200),
    input: truncateStrings(facts.redactedInput, RECORD_STRING_LIMIT),
    at,
    timestamp: new Date(at).toISOString(),
    ...(options.session?.host === undefined ? {} : { host: options.session.host }),
  };
  options.denials
    .append([record])
    .catch((error: unknown) => options.onError?.(error, "spooling a fail-closed refusal"));
}
