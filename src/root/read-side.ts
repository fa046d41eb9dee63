import type { ToolgateConfig } from "../config/schema.js";
import type { StoreOptions } from "../config/store-schema.js";
import { createRedactor, type RedactOptions } from "../detect/redact.js";
import { createRedactOptions } from "../detect-node/redact-options.js";
import { type DrainedStore, openDrainedStore } from "../store/open-drained-store.js";
import { openStore } from "../store/open-store.js";
import type { Store } from "../store/ports.js";
import { resolveStoreLocation, type StoreLocation } from "../store/resolve-store-location.js";
import { loadConfigLazily } from "./load-config-lazily.js";

/** Where the read side runs: the same inputs every hook's composition root reads its config from. */
export interface ReadSideOptions {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * The read side's half of the composition root: what `report`, `tail`, `scrub`, `prune`, the dashboard,
 * `analyze --save`/`--html` and `redact` open, found exactly as the hooks find it (config discovery, environment
 * overrides, the configured redaction, the store the environment and config select). One place, so a reader
 * never reads another store, or redacts less, than the writers.
 */
export interface ReadSide {
  /** the validated config (defaults applied) */
  readonly config: ToolgateConfig;
  /** the configured redaction's options (extra patterns, keyed hash, bounds) */
  readonly redactOptions: RedactOptions;
  /** the configured redaction (extra patterns, keyed suffix), as the guard uses it */
  readonly redactor: ReturnType<typeof createRedactor>;
  /** the config's store section, for the store openers */
  readonly storeOptions: { config?: StoreOptions };
  /** where the store is (TOOLGATE_DATABASE_URL, TOOLGATE_DB, the config, the default file); throws CONFIG_INVALID */
  storeLocation(): StoreLocation;
  /** the store, as it is */
  openStore(): Promise<Store<unknown>>;
  /** the store with the hooks' spool shipped into it first (what a reader of recent records wants) */
  openDrainedStore(): Promise<DrainedStore<unknown>>;
}

/**
 * Loads the config once (its schema only when a config file applies) and returns the read side's openers. Rejects
 * with the config's CONFIG_* errors.
 */
export async function openReadSide(options: ReadSideOptions): Promise<ReadSide> {
  const { config } = await loadConfigLazily({ cwd: options.cwd, env: { ...options.env }, homeDir: options.homeDir });
  return readSideOf(config, options.env);
}

/** The read side's openers over a config already loaded (by `loadToolgateSetup`, say) and its environment. */
export function readSideOf(
  config: ToolgateConfig,
  environment: Readonly<Record<string, string | undefined>>,
): ReadSide {
  const env = { ...environment };
  const storeOptions: { config?: StoreOptions } = config.store ? { config: config.store as StoreOptions } : {};
  const redactOptions = createRedactOptions(config.redaction, env);
  return {
    config,
    redactOptions,
    redactor: createRedactor(redactOptions),
    storeOptions,
    storeLocation: () => resolveStoreLocation({ env, ...storeOptions }),
    openStore: () => openStore<unknown>({ env, ...storeOptions }),
    openDrainedStore: () => openDrainedStore<unknown>({ env, ...storeOptions }),
  };
}
