import type { SessionState } from "../../core/state.js";
import type { DenialStore, Store } from "../ports.js";
import { createSpooledDenialStore, type SpooledDenialStore } from "../spooled-denial-store.js";
import { createFileSessionStateStore } from "./file-session-state-store.js";

export interface LocalFirstStoreOptions {
  /** session state files (e.g. ~/.toolgate/state) */
  stateDirectory: string;
  /** the spool records and events wait in until `drain()` (e.g. ~/.toolgate/spool) */
  spoolDirectory: string;
  /** the real denial store (SQLite, Postgres), opened only by `drain()` and by reads */
  open: () => Promise<DenialStore>;
  /** whether that store surely holds nothing yet (its SQLite file not created): a session's read then skips it */
  holdsNothing?: () => boolean;
  /** state lock budget (1500 ms) */
  lockWaitMs?: number;
  /** state lock staleness (10 s) */
  staleAfterMs?: number;
  /** per store operation during a drain or a read (5000 ms) */
  timeoutMs?: number;
  onError?: (error: unknown) => void;
}

/**
 * The hook's hot-path store: session state in small JSON files (createFileSessionStateStore) and records and
 * events appended to the local spool (createSpooledDenialStore, spool-first). A gating event touches no database
 * and loads no native module; `denials.drain()` ships the spool to the real store afterwards, exactly once.
 */
export function createLocalFirstStore<S = SessionState>(
  options: LocalFirstStoreOptions,
): Store<S> & { readonly denials: SpooledDenialStore } {
  const sessions = createFileSessionStateStore<S>({
    directory: options.stateDirectory,
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
    ...(options.staleAfterMs === undefined ? {} : { staleAfterMs: options.staleAfterMs }),
  });
  const denials = createSpooledDenialStore({
    open: options.open,
    ...(options.holdsNothing === undefined ? {} : { holdsNothing: options.holdsNothing }),
    spoolDirectory: options.spoolDirectory,
    mode: "spool-first",
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.onError ? { onError: options.onError } : {}),
  });
  return {
    location: `file:${options.stateDirectory}`,
    denials,
    sessions,
    async close() {
      await sessions.close();
      await denials.close();
    },
  };
}
