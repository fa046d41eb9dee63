import type { StoreOptions } from "../../config/store-schema.js";
import type { CoreOptions } from "../../core/config.js";
import type { RedactOptions } from "../../detect/redaction-types.js";
import type { AuditSink, PolicyEvaluator } from "../../guard/create-guard.js";
import type { SessionStateStore } from "../../store/ports.js";

/** What a hook process needs to build its guard. */
export interface HookWiring {
  policy: PolicyEvaluator;
  core: CoreOptions | undefined;
  warnings: { code: string; message: string }[];
  stateStore: SessionStateStore;
  sink: AuditSink;
  store: StoreOptions | undefined;
  /** redaction options from the config (extension patterns, keyed hash); absent without a config */
  redaction?: RedactOptions;
  close(): Promise<void>;
}

/**
 * Loads policy, store and audit sink for one hook run. With a toolgate config: the full path (config schema,
 * `createPolicy`, `openAuditTrail` with logs, hooks, OpenTelemetry, spooling). Without one (the common case): the
 * fast path, which loads no schema or logger: the Claude settings policy, the store selected by the environment,
 * and an audit sink writing records and events to it.
 */
export async function openHookWiring(options: {
  cwd: string;
  homeDir: string;
  environment: NodeJS.ProcessEnv;
  onError: (message: string) => void;
}): Promise<HookWiring> {
  const { cwd, homeDir, environment } = options;
  const report = (error: unknown, where: string) =>
    options.onError(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  const { hasToolgateConfig, claudeSettingsPolicy } = await import("./claude-settings-policy.js");
  if (!hasToolgateConfig({ cwd, homeDir, env: environment })) {
    const [{ openStore }, { createAuditSink }] = await Promise.all([
      import("../../store/open-store.js"),
      import("../../audit/create-audit-sink.js"),
    ]);
    const policy = claudeSettingsPolicy({ cwd, homeDir, env: environment });
    const store = await openStore({ env: environment });
    return {
      policy,
      core: undefined,
      warnings: [...policy.warnings],
      stateStore: store.sessions,
      sink: createAuditSink({ denialStore: store.denials, onError: report }),
      store: undefined,
      close: () => store.close(),
    };
  }
  const [{ loadConfig }, { createPolicy }, { openAuditTrail }, { createRedactOptions }] = await Promise.all([
    import("../../node/load-config.js"),
    import("../../node/create-policy.js"),
    import("../../audit/open-audit-trail.js"),
    import("../../detect-node/redact-options.js"),
  ]);
  const loaded = loadConfig({ cwd, env: environment, homeDir });
  const policy = createPolicy({ cwd, homeDir, env: environment, config: loaded.config });
  const trail = await openAuditTrail({
    ...(loaded.config.audit === undefined ? {} : { audit: loaded.config.audit }),
    ...(loaded.config.store === undefined ? {} : { store: loaded.config.store }),
    env: environment,
    onError: report,
  });
  return {
    policy,
    core: loaded.config.escalation,
    warnings: [...loaded.warnings, ...policy.warnings],
    stateStore: trail.stateStore,
    sink: trail.sink,
    store: loaded.config.store,
    redaction: createRedactOptions(loaded.config.redaction, environment),
    close: () => trail.close(),
  };
}
