import type { StoreOptions } from "../config/store-schema.js";
import { openStore } from "./open-store.js";
import type { Store } from "./ports.js";
import { resolveStoreLocation, type StoreLocation } from "./resolve-store-location.js";
import { createSpool } from "./spool.js";
import { spoolDirectoryFor } from "./spool-directory-for.js";
import type { SpoolBatch } from "./spooled-denial-store.js";

export interface DrainedStore<S> {
  store: Store<S>;
  location: StoreLocation;
  /** the spool the hook's local-first path appends to (records and events not yet in the store) */
  spoolDirectory: string;
  /** batches the opening drain shipped */
  replayed: number;
  /**
   * Ships what waits in the spool into the store (claim by rename, idempotent: safe beside hooks and other
   * readers); a batch the store refuses stays in the spool. Returns the batches replayed. Call it before each
   * read that must see the newest records (`tail` does, each poll). The memory engine gets nothing: what it
   * holds would vanish with this process, so the spool keeps it.
   */
  drain(): Promise<number>;
  /**
   * What still waits in the spool (batches, read from its files) and, when the last drain failed to ship some,
   * why: the store's error. A reader says so instead of showing a total that leaves them out.
   */
  waiting(): { batches: number; reason?: string };
}

/**
 * Opens the store the environment and config select and drains the spool into it first, so what the hooks
 * spooled a moment ago is visible: the way `report`, `tail`, `run` and the dashboard read. The spool is the one
 * the composition root writes to for the same environment and store (spoolDirectoryFor).
 */
export async function openDrainedStore<S = unknown>(
  options: { env?: Record<string, string | undefined>; config?: StoreOptions } = {},
): Promise<DrainedStore<S>> {
  const env = options.env ?? process.env;
  const config = options.config ? { config: options.config } : {};
  const home = env.HOME?.trim() ? env.HOME : undefined;
  const location = resolveStoreLocation({ env, ...config, ...(home ? { home } : {}) });
  const spoolDirectory = spoolDirectoryFor(location, { ...config, ...(home ? { home } : {}) });
  const store = await openStore<S>({ location, ...config });
  const spool = createSpool<SpoolBatch>({ directory: spoolDirectory, prefix: "denials" });
  let reason: string | undefined;
  const replay = async () => {
    const result = await spool.replay(async (batches) => {
      for (const batch of batches) {
        if (batch.kind === "denials") await store.denials.append(batch.records);
        else await store.denials.appendEvents(batch.events);
      }
    });
    reason = "error" in result ? messageOf(result.error) : undefined;
    return result.replayed;
  };
  const drain = async () => {
    if (location.engine === "memory" || !spool.hasPending()) return 0;
    let replayed = await replay();
    // a batch another process claimed (a hook's detached drain) is in neither the spool's files nor, until that
    // process commits, the store: wait for it, then take what a failed delivery put back
    if ((await spool.claimsReleased({ budgetMs: CLAIM_WAIT_MS })) === "released" && spool.hasPending()) {
      replayed += await replay();
    }
    return replayed;
  };
  const waiting = () => {
    if (!spool.hasPending()) return { batches: 0 };
    const batches = spool.pending().length;
    if (location.engine === "memory") return { batches, reason: "the store selected is in memory (TOOLGATE_DB=off)" };
    return reason === undefined ? { batches } : { batches, reason };
  };
  let replayed: number;
  try {
    replayed = await drain();
  } catch (error) {
    await store.close();
    throw error;
  }
  return { store, location, spoolDirectory, replayed, drain, waiting };
}

/**
 * How long a reader waits for batches another process is shipping (a detached drain: one store transaction per
 * file, each bounded by 5 s): past it, what is still claimed shows in `waiting()` instead of being waited for.
 */
const CLAIM_WAIT_MS = 5_000;

function messageOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.trim() || "the store refused the write";
}
