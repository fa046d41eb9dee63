import { existsSync } from "node:fs";
import { join } from "node:path";
import type { AuditOptions } from "../config/audit-schema.js";
import type { StoreOptions } from "../config/store-schema.js";
import { ToolgateError } from "../core/errors.js";
import type { SessionState } from "../core/state.js";
import { describeStoreLocation } from "../store/describe-store-location.js";
import { createLocalFirstStore } from "../store/file/local-first-store.js";
import { openStore } from "../store/open-store.js";
import type { DenialStore, SessionStateStore, Store } from "../store/ports.js";
import { defaultStateDirectory, resolveStoreLocation, type StoreLocation } from "../store/resolve-store-location.js";
import { spoolDirectoryFor } from "../store/spool-directory-for.js";
import { createSpooledDenialStore, type DrainOptions, type SpooledDenialStore } from "../store/spooled-denial-store.js";
import { type AuditListeners, type AuditTrailSink, createAuditSink } from "./create-audit-sink.js";
import type { HookOutcome } from "./hook-dispatcher.js";

/** No audit section at all (no toolgate config): records and events go to the store only. */
const NO_AUDIT: AuditOptions = { hooks: [], logs: { destination: "off", level: "info" }, openTelemetry: false };

/** How long a drain from a short-lived process may wait on one store operation (the hook: 1.5 s). */
const LOCAL_FIRST_TIMEOUT_MS = 1_500;

export interface AuditTrail {
  /** what the guard needs: `createGuard({ stateStore, sinks: [sink] })` */
  stateStore: SessionStateStore;
  sink: AuditTrailSink;
  /** the denial store the sink writes to (spooled while the store is unreachable, or always: local-first) */
  denials: SpooledDenialStore;
  /** the store's location for messages */
  location: string;
  /** `local-first`: state in files, records spool-first (the hook); `store`: both in the store */
  mode: "local-first" | "store";
  /** ships the spool to the store within the budget; never throws (failures go to `onError`, batches stay) */
  drain(options?: DrainOptions): Promise<{ replayed: number; failed: number }>;
  /** closes the store (call after `guard.drain()`) */
  close(): Promise<void>;
}

/**
 * Everything the audit section and store section of the config describe, wired for the guard: the session state
 * store, and a sink that writes records, logs, OpenTelemetry and hooks.
 *
 * `localFirst` (command-hook processes, one per event): session state lives in one JSON file per session under
 * `~/.toolgate/state` (lock file, write-temp-and-rename) and records and audit events are appended to the spool
 * (`store.spoolDirectory`, default `~/.toolgate/spool`) only; the database (SQLite or Postgres) is opened by
 * `drain()` and by reads, never by a gating event, so no native module loads and a store that cannot be opened
 * costs nothing but the wait in the spool. The memory engine (`TOOLGATE_DB=off` or `:memory:`) keeps the store path.
 *
 * Otherwise the state store opens eagerly (the guard cannot count without it). When Postgres is unreachable,
 * state falls back to the local SQLite database (TOOLGATE_DB, store.path, or ~/.toolgate/toolgate.db) and records
 * are spooled until Postgres is back (reported through `onError`); a corrupt or newer SQLite database throws its
 * ToolgateError (STORE_CORRUPT / STORE_VERSION).
 */
export async function openAuditTrail(
  options: {
    /** the `audit` config section as `loadConfig` returns it (validated, defaults applied); none: no logs, hooks or OTel */
    audit?: AuditOptions;
    store?: StoreOptions;
    env?: Record<string, string | undefined>;
    /** state in files and records spool-first (command-hook processes); see above */
    localFirst?: boolean;
    listeners?: AuditListeners[];
    onError?: (error: unknown, where: string) => void;
    onHookOutcome?: (outcome: HookOutcome) => void;
  } = {},
): Promise<AuditTrail> {
  const env = options.env ?? process.env;
  // the environment's HOME (a host's or a test's; the process's when the env has none)
  const home = env.HOME?.trim() ? env.HOME : undefined;
  const where = { ...(options.store ? { config: options.store } : {}), ...(home ? { home } : {}) };
  const location = resolveStoreLocation({ env, ...where });
  const spoolDirectory = spoolDirectoryFor(location, where);
  if (options.localFirst === true && keepsFiles(location)) {
    return localFirstTrail({ options, location, spoolDirectory, stateDirectory: defaultStateDirectory({ home }) });
  }
  const storeConfig = options.store ? { config: options.store } : {};
  let primary: Store<SessionState> | undefined;
  let fallback: Store<SessionState> | undefined;
  try {
    primary = await openStore({ location, ...storeConfig });
  } catch (error) {
    if (location.engine !== "postgres" || !ToolgateError.is(error) || error.code !== "STORE_UNAVAILABLE") throw error;
    options.onError?.(error, "store (session state falls back to the local SQLite database)");
    const local = resolveStoreLocation({
      env: { ...env, TOOLGATE_DATABASE_URL: undefined },
      config: { ...options.store, engine: "sqlite", url: undefined },
    });
    fallback = await openStore({ location: local, ...storeConfig });
  }
  const denials = createSpooledDenialStore({
    open: async () => {
      primary ??= await openStore({ location, ...storeConfig });
      return primary.denials;
    },
    spoolDirectory,
    ...(options.onError ? { onError: (error: unknown) => options.onError!(error, "denial store") } : {}),
  });
  return {
    stateStore: (primary ?? fallback)!.sessions,
    sink: await sinkFor(options, denials, spoolDirectory),
    denials,
    location: (primary ?? fallback)!.location,
    mode: "store",
    drain: (drainOptions) => denials.drain(drainOptions),
    async close() {
      await primary?.close();
      await fallback?.close();
    },
  };
}

/** whether the location is on disk (the memory engine and SQLite's `:memory:` keep nothing between processes) */
function keepsFiles(location: StoreLocation): boolean {
  return location.engine === "postgres" || (location.engine === "sqlite" && location.filename !== ":memory:");
}

async function localFirstTrail(input: {
  options: Parameters<typeof openAuditTrail>[0] & {};
  location: StoreLocation;
  spoolDirectory: string;
  stateDirectory: string;
}): Promise<AuditTrail> {
  const { options, location, spoolDirectory } = input;
  const store = createLocalFirstStore({
    stateDirectory: input.stateDirectory,
    spoolDirectory,
    timeoutMs: LOCAL_FIRST_TIMEOUT_MS,
    // a SQLite file not created yet holds no row: a session's first read of its records answers from the spool
    // without opening (and so creating) the database
    ...(location.engine === "sqlite" ? { holdsNothing: () => !existsSync(location.filename) } : {}),
    open: async (): Promise<DenialStore> => {
      const opened = await openStore({ location, ...(options.store ? { config: options.store } : {}) });
      return Object.assign(Object.create(opened.denials) as DenialStore, { close: () => opened.close() });
    },
    ...(options.onError ? { onError: (error: unknown) => options.onError!(error, "denial store") } : {}),
  });
  return {
    stateStore: store.sessions,
    sink: await sinkFor(options, store.denials, spoolDirectory),
    denials: store.denials,
    location: describeStoreLocation(location),
    mode: "local-first",
    drain: (drainOptions) => store.denials.drain(drainOptions),
    close: () => store.close(),
  };
}

/** the logger (pino) and OpenTelemetry load only when the config asks for them */
async function sinkFor(
  options: Parameters<typeof openAuditTrail>[0] & {},
  denialStore: DenialStore,
  spoolDirectory: string,
): Promise<AuditTrailSink> {
  const audit = options.audit ?? NO_AUDIT;
  const logger =
    audit.logs.destination === "off" ? undefined : (await import("./audit-logger.js")).createAuditLogger(audit.logs);
  return createAuditSink({
    denialStore,
    hooks: audit.hooks,
    hookSpoolDirectory: join(spoolDirectory, "hooks"),
    ...(logger ? { logger } : {}),
    ...(audit.openTelemetry
      ? { openTelemetry: await (await import("./open-telemetry.js")).createOpenTelemetryRecorder() }
      : {}),
    ...(options.listeners ? { listeners: options.listeners } : {}),
    ...(options.onError ? { onError: options.onError } : {}),
    ...(options.onHookOutcome ? { onHookOutcome: options.onHookOutcome } : {}),
  });
}
