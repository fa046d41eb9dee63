import { join } from "node:path";
import type { AuditOptions } from "../config/audit-schema.js";
import type { StoreOptions } from "../config/store-schema.js";
import { ToolgateError } from "../core/errors.js";
import type { SessionState } from "../core/state.js";
import { openStore } from "../store/open-store.js";
import type { DenialStore, SessionStateStore, Store } from "../store/ports.js";
import { defaultSpoolDirectory, resolveStoreLocation } from "../store/resolve-store-location.js";
import { createSpooledDenialStore } from "../store/spooled-denial-store.js";
import { type AuditListeners, type AuditTrailSink, createAuditSink } from "./create-audit-sink.js";
import type { HookOutcome } from "./hook-dispatcher.js";

/** No audit section at all (no toolgate config): records and events go to the store only. */
const NO_AUDIT: AuditOptions = { hooks: [], logs: { destination: "off", level: "info" }, openTelemetry: false };

export interface AuditTrail {
  /** what the guard needs: `createGuard({ stateStore, sinks: [sink] })` */
  stateStore: SessionStateStore;
  sink: AuditTrailSink;
  /** the denial store the sink writes to (spooled while the store is unreachable), for reading back */
  denials: DenialStore;
  /** the store's location for messages */
  location: string;
  /** closes the store (call after `guard.drain()`) */
  close(): Promise<void>;
}

/**
 * Everything the audit section and store section of the config describe, wired for the guard: the session state
 * store, and a sink that writes records (spooled when the store is unreachable), logs, OpenTelemetry and hooks.
 * The state store opens eagerly (the guard cannot count without it). When Postgres is unreachable, state falls
 * back to the local SQLite database (TOOLGATE_DB, store.path, or ~/.toolgate/toolgate.db) and records are spooled
 * until Postgres is back (reported through `onError`);
 * a corrupt or newer SQLite database throws its ToolgateError (STORE_CORRUPT / STORE_VERSION).
 */
export async function openAuditTrail(
  options: {
    /** the `audit` config section as `loadConfig` returns it (validated, defaults applied); none: no logs, hooks or OTel */
    audit?: AuditOptions;
    store?: StoreOptions;
    env?: Record<string, string | undefined>;
    listeners?: AuditListeners[];
    onError?: (error: unknown, where: string) => void;
    onHookOutcome?: (outcome: HookOutcome) => void;
  } = {},
): Promise<AuditTrail> {
  const audit = options.audit ?? NO_AUDIT;
  const env = options.env ?? process.env;
  const location = resolveStoreLocation({ env, ...(options.store ? { config: options.store } : {}) });
  const spoolDirectory = defaultSpoolDirectory(options.store ? { config: options.store } : {});
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
  // the logger (pino) and OpenTelemetry load only when the config asks for them
  const logger =
    audit.logs.destination === "off" ? undefined : (await import("./audit-logger.js")).createAuditLogger(audit.logs);
  const sink = createAuditSink({
    denialStore: denials,
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
  return {
    stateStore: (primary ?? fallback)!.sessions,
    sink,
    denials,
    location: (primary ?? fallback)!.location,
    async close() {
      await primary?.close();
      await fallback?.close();
    },
  };
}
