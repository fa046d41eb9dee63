import { existsSync } from "node:fs";
import { join } from "node:path";
import type { StoreOptions } from "../../config/store-schema.js";
import type { SessionState } from "../../core/state.js";
import type { Store } from "../ports.js";
import { resolveStoreLocation, toolgateHome } from "../resolve-store-location.js";
import { spoolDirectoryFor } from "../spool-directory-for.js";
import type { SpooledDenialStore } from "../spooled-denial-store.js";
import { createLocalFirstStore } from "./local-first-store.js";

/**
 * A local-first store as the composition root opens it: session state in `~/.toolgate/state` (or `stateDirectory`),
 * records and events in the store's spool (spoolDirectoryFor), drained into the store
 * the environment and config select (TOOLGATE_DATABASE_URL, TOOLGATE_DB, `store`), which is opened only by
 * `denials.drain()` and by reads. Nothing here loads a database driver.
 *
 * With the memory engine (`TOOLGATE_DB=off`, `store.engine: "memory"`) nothing may touch the disk, so the
 * caller should use createMemoryStore instead: this function throws for it rather than write files.
 */
export function openLocalFirstStore<S = SessionState>(
  options: {
    env?: Record<string, string | undefined>;
    config?: StoreOptions;
    home?: string;
    stateDirectory?: string;
    onError?: (error: unknown) => void;
  } = {},
): Store<S> & { readonly denials: SpooledDenialStore } {
  const location = resolveStoreLocation({ env: options.env, config: options.config, home: options.home });
  if (location.engine === "memory") {
    throw new Error("openLocalFirstStore: the memory engine keeps nothing on disk; use createMemoryStore instead");
  }
  return createLocalFirstStore<S>({
    stateDirectory: options.stateDirectory ?? join(toolgateHome(options.home), "state"),
    spoolDirectory: spoolDirectoryFor(location, { config: options.config, home: options.home }),
    ...(location.engine === "sqlite" ? { holdsNothing: () => !existsSync(location.filename) } : {}),
    open: async () => {
      const { openStore } = await import("../open-store.js");
      const store = await openStore({ location, config: options.config });
      return { ...store.denials, close: () => store.close() };
    },
    ...(options.onError ? { onError: options.onError } : {}),
  });
}
