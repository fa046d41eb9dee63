import type { CompiledConfig } from "../core/config.js";
import { ToolgateError } from "../core/errors.js";
import type { DenialRecord } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import type { GuardSessionOptions } from "../guard/types.js";
import type { DenialStore, SessionStateStore, StoredDenial } from "../store/ports.js";
import type { SpooledDenialStore } from "../store/spooled-denial-store.js";
import { rebuildSessionState } from "./rebuild-session-state.js";

type OnError = ((error: unknown, where: string) => void) | undefined;

/**
 * The denial store as the guard reads it on the local-first path (`recordedCallIds`: which calls a transcript
 * shows that are already recorded): the store after a drain, plus what still waits in the spool, or only the
 * spool when the store cannot be opened, so a Stop event never fails or double-records because the store is down.
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
 * the records cannot be read the session starts from no state, which can only delay an escalation.
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
    const records: DenialRecord[] = await withPendingRecords(options.denials, options.onError).query({ sessionId });
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
  return {
    get: (sessionId) => files.get(sessionId),
    delete: (sessionId) => files.delete(sessionId),
    close: () => files.close(),
    async update(sessionId, fn) {
      try {
        return await files.update(sessionId, fn);
      } catch (error) {
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
