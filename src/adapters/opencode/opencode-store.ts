import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { CoreOptions } from "../../core/config.js";
import type { Effect } from "../../core/effects.js";
import type { AuditEvent } from "../../core/records.js";
import type { SessionState } from "../../core/state.js";
import type { RedactOptions } from "../../detect/redaction-types.js";
import type { AuditSink } from "../../guard/create-guard.js";
import type { SessionStateStore, Store } from "../../store/ports.js";

/** Where the plugin's records, audit events and hooks go, and the escalation options from toolgate's config. */
export interface OpencodeRecords {
  sinks: AuditSink[];
  /** escalation options from toolgate.config.json / .toolgate.json, when one exists */
  core?: CoreOptions;
  warnings: { code: string; message: string }[];
  /** redaction options from the config (extension patterns, keyed hash) */
  redaction?: RedactOptions;
  /** an audit event toolgate writes itself (a headless reject that stopped the run): store, logs and hooks */
  appendEvent(event: AuditEvent): Promise<void>;
  close(): Promise<void>;
}

const CONFIG_FILE_NAMES = ["toolgate.config.json", ".toolgate.json"];

/** whether a toolgate config applies to `directory` (TOOLGATE_CONFIG, ~/.toolgate.json, or a project file) */
export function hasToolgateConfig(options: { directory: string; homeDir: string; environment: NodeJS.ProcessEnv }) {
  if (options.environment.TOOLGATE_CONFIG) return true;
  if (existsSync(join(options.homeDir, ".toolgate.json"))) return true;
  for (let directory = options.directory; ; directory = dirname(directory)) {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(join(directory, name)))) return true;
    if (dirname(directory) === directory) return false;
  }
}

/** Mirrors the session's reducer state after each step that produced a record or event (for `toolgate run`). */
function stateMirror(sessions: SessionStateStore): AuditSink {
  return {
    async deliver(effects: readonly Effect[], session: { sessionId: string; state: SessionState }) {
      if (!effects.some((effect) => effect.type === "record" || effect.type === "audit")) return;
      await sessions.update(session.sessionId, () => session.state);
    },
  };
}

/**
 * Opens the store and the audit sink the same way the other hosts do: with a toolgate config, `openAuditTrail`
 * (store from config/env, spooling, JSON logs, OpenTelemetry, per-denial hooks); without one, the store the
 * environment selects (`TOOLGATE_DATABASE_URL`, `TOOLGATE_DB`, else ~/.toolgate/toolgate.db) with records spooled
 * when it is unreachable. Inside opencode (Bun) SQLite opens through bun:sqlite. Counting stays in memory.
 */
export async function openOpencodeRecords(options: {
  directory: string;
  homeDir: string;
  environment: NodeJS.ProcessEnv;
  onError: (error: unknown, where: string) => void;
}): Promise<OpencodeRecords> {
  const { environment, onError } = options;
  if (hasToolgateConfig(options)) {
    const [{ loadConfig }, { openAuditTrail }, { createRedactOptions }] = await Promise.all([
      import("../../node/load-config.js"),
      import("../../audit/open-audit-trail.js"),
      import("../../detect-node/redact-options.js"),
    ]);
    const loaded = loadConfig({ cwd: options.directory, env: environment, homeDir: options.homeDir });
    const trail = await openAuditTrail({
      ...(loaded.config.audit === undefined ? {} : { audit: loaded.config.audit }),
      ...(loaded.config.store === undefined ? {} : { store: loaded.config.store }),
      env: environment,
      onError,
    });
    return {
      sinks: [trail.sink, stateMirror(trail.stateStore)],
      ...(loaded.config.escalation === undefined ? {} : { core: loaded.config.escalation }),
      warnings: loaded.warnings,
      redaction: createRedactOptions(loaded.config.redaction, environment),
      appendEvent: async (event) => trail.sink.deliver([{ type: "audit", event }]),
      close: () => trail.close(),
    };
  }
  const [{ openStore }, { createAuditSink }, { createSpooledDenialStore }, { defaultSpoolDirectory }] =
    await Promise.all([
      import("../../store/open-store.js"),
      import("../../audit/create-audit-sink.js"),
      import("../../store/spooled-denial-store.js"),
      import("../../store/resolve-store-location.js"),
    ]);
  let store: Store | undefined;
  try {
    store = await openStore({ env: environment });
  } catch (error) {
    onError(error, "store (denial records are spooled until it can be opened)");
  }
  const opened = store;
  const denials = createSpooledDenialStore({
    open: async () => opened?.denials ?? (await openStore({ env: environment })).denials,
    spoolDirectory: defaultSpoolDirectory({ home: options.homeDir }),
    onError: (error) => onError(error, "denial store"),
  });
  const sink = createAuditSink({ denialStore: denials, onError });
  return {
    sinks: opened === undefined ? [sink] : [sink, stateMirror(opened.sessions)],
    warnings: [],
    appendEvent: async (event) => sink.deliver([{ type: "audit", event }]),
    close: async () => {
      await opened?.close();
    },
  };
}
