import type { AuditOptions } from "../config/audit-schema.js";
import type { ToolgateConfig } from "../config/schema.js";
import type { CoreOptions, CorePorts } from "../core/config.js";
import type { Effect } from "../core/effects.js";
import type { ToolCall } from "../core/events.js";
import type { AuditEvent } from "../core/records.js";
import type { SessionState } from "../core/state.js";
import type { FailureInput, OsDenial } from "../guard/classify-failure.js";
import { type AuditSink, createGuard, type Guard, type PolicyEvaluator } from "../guard/create-guard.js";
import type { DecideResult } from "../guard/types.js";
import type { DenialStore, SessionStateStore } from "../store/ports.js";
import { loadToolgateSetup, type ToolgateSetupOptions } from "./load-toolgate-setup.js";
import { recoveringStateStore, spoolUnrecordedRefusal, withPendingRecords } from "./local-first-state.js";
import type { PolicyHandle } from "./policy-handle.js";
import { runAbortSink } from "./run-abort-sink.js";
import { type GuardActivity, watchGuardEvents } from "./watch-guard-events.js";

export interface OpenToolgateOptions extends ToolgateSetupOptions {
  /** the host this process serves, recorded with every session (a registered host's name, `cli`, ...) */
  host: string;
  /**
   * where session state lives: `store` (default) keeps it in the store so separate processes (one per hook event)
   * share it; `memory` keeps it in this process (plugins, SDK hosts), mirrored to the store after each step that
   * recorded something when `mirrorState` is set (so `toolgate run` can read it)
   */
  state?: "store" | "memory";
  mirrorState?: boolean;
  /**
   * `false`: the host decides every call itself and toolgate only counts what it reports (a plugin host whose own
   * permission rules decide); an evaluator: use it instead of the config's policy. Default: the config's policy.
   */
  enforce?: false | PolicyEvaluator;
  /** escalation options over the config's (a host's own defaults or a caller's overrides) */
  core?: CoreOptions;
  /**
   * a host's escalation defaults UNDER the config (a descriptor's `escalationDefaults`): a config file or
   * `TOOLGATE_DENY_THRESHOLD[_<FAMILY>]` still decides; `familyThresholds` merge per family
   */
  hostDefaults?: CoreOptions;
  /** ports over the defaults (a host's own rule syntax for suggestions, say) */
  ports?: Partial<CorePorts>;
  /** the host's OS-denial classifier for call output (detect/'s by default) */
  classifyFailure?: (input: FailureInput) => OsDenial | undefined;
  /** more warnings to emit once per session (a host's own settings problems) */
  warnings?: { code: string; message: string }[];
  /** extra sinks beside the store, logs and hooks */
  sinks?: AuditSink[];
  /** internal errors (failing sinks, fail-closed decisions); default: one line on stderr */
  onError?: (error: unknown, where: string) => void;
  /**
   * With `state: "store"`: when `close()` finds the spool due for a drain, it calls this instead of draining in this
   * process (the hook entry hands the drain to a detached process, off the host's wait). The spool keeps every
   * record until a drain ships it, so nothing is lost when that process fails; when this throws, `close()` drains
   * here as it would without it.
   */
  deferDrain?: () => void;
}

/** Everything a host needs, wired once: the guard, plus what some hosts read back. */
export interface Toolgate {
  guard: Guard;
  /** built already, unless `policyOnDemand` was asked for: then built by the first step that consults it */
  policy: PolicyHandle;
  /** the validated config (`{}` when no config file applies) */
  config: ToolgateConfig;
  /** the config files read and env variables applied, lowest precedence first */
  sources: string[];
  /** where records and state live, for messages */
  location: string;
  /** the denial store the guard records into (spooled while unreachable) */
  denials: DenialStore;
  /** an audit event the host produced itself (a host-side stop): store, logs and hooks */
  recordEvent(event: AuditEvent): Promise<void>;
  /**
   * Ships the spooled records and events to the store within `budgetMs` (each store operation bounded too); never
   * throws. With `state: "store"` (command hooks) records are spooled first and drained off the hot path: by
   * `close()` after a non-gating event, and by `report`, `tail` and `run` (`openDrainedStore`).
   */
  drain(options?: { budgetMs?: number }): Promise<{ replayed: number; failed: number }>;
  /**
   * waits for deliveries under way, drains the spool when this process handled only non-gating events (a gating
   * event's process never opens the database), then closes the store
   */
  close(): Promise<void>;
}

/**
 * The composition root: the one place that discovers and loads the config (files + env; without a config file
 * no schema is loaded at all), builds the policy, opens the store and the audit trail (records spooled while the
 * store is unreachable, logs, OpenTelemetry and per-denial hooks as configured), sets up redaction, and wires the
 * guard. Every host (hook processes, plugins, SDK wrappers, CLI commands) gets its guard here; adapters only
 * translate. Throws ToolgateError CONFIG_INVALID / CONFIG_NOT_FOUND / STORE_CORRUPT / STORE_VERSION with a
 * sentence that names the file, the key and the fix.
 */
export async function openToolgate(options: OpenToolgateOptions): Promise<Toolgate> {
  const setup = await loadToolgateSetup(options);
  const { config, env, policy, redaction } = setup;
  const audit = setup.hasConfigFile ? await auditOptionsOf(config) : undefined;
  const { openAuditTrail } = await import("../audit/open-audit-trail.js");
  const inMemory = options.state === "memory";
  const trail = await openAuditTrail({
    env,
    localFirst: !inMemory,
    ...(audit === undefined ? {} : { audit }),
    ...(config.store === undefined ? {} : { store: config.store }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  // under `toolgate run` (its directory in the environment), an abort is noted for run, whichever host or app opened
  // toolgate: one abort, ended the same way everywhere. The host's own answer is given time to end the run first.
  const sinks: AuditSink[] = [trail.sink, ...runAbortSink(env, { hostEndsRun: true }), ...(options.sinks ?? [])];
  if (inMemory && options.mirrorState === true) sinks.push(stateMirror(trail.stateStore));
  const escalation = withHostDefaults(options.hostDefaults, config.escalation);
  const core: CoreOptions | undefined = options.core === undefined ? escalation : { ...escalation, ...options.core };
  const hostWarnings = options.warnings ?? [];
  // with the policy built on demand, its warnings go out with the first step that builds it (the session's first
  // decision or recorded refusal); when there are others to emit at once, it is built now, so all go out together (and
  // when another evaluator decides, as the guard would never build it)
  if (setup.warnings.length > 0 || hostWarnings.length > 0 || options.enforce !== undefined) await policy.prepare();
  const built = policy.current;
  // built now: the policy itself, its warnings given below; else the handle, which the guard prepares when needed
  const enforced: PolicyEvaluator | false = options.enforce ?? built ?? policy;
  const activity: GuardActivity = { gating: false, other: false, boundary: false, sessions: new Map() };
  let guard: Guard | undefined;
  const localFirst = trail.mode === "local-first";
  const onError = options.onError;
  const stateStore = localFirst
    ? recoveringStateStore({
        files: trail.stateStore,
        denials: trail.denials,
        context: () => (guard === undefined ? undefined : { config: guard.config, sessions: activity.sessions }),
        onError,
      })
    : trail.stateStore;
  guard = createGuard({
    ...(core === undefined ? {} : { core }),
    warnings: [...setup.warnings, ...(built?.warnings ?? []), ...hostWarnings],
    ...(enforced === false ? {} : { policy: enforced }),
    ...(inMemory ? {} : { stateStore }),
    denialStore: localFirst ? withPendingRecords(trail.denials, onError) : trail.denials,
    sinks,
    ...(redaction === undefined ? {} : { redaction }),
    ...(options.ports === undefined ? {} : { ports: options.ports }),
    ...(options.classifyFailure === undefined ? {} : { classifyFailure: options.classifyFailure }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const opened = guard;
  return {
    guard: watchGuardEvents(opened, {
      activity,
      ...(localFirst
        ? {
            afterDecide: (sessionId: string, call: ToolCall, result: DecideResult) =>
              spoolUnrecordedRefusal({
                denials: trail.denials,
                config: opened.config,
                session: activity.sessions.get(sessionId),
                sessionId,
                call,
                result,
                onError,
              }),
          }
        : {}),
    }),
    policy,
    config,
    sources: setup.sources,
    location: trail.location,
    denials: trail.denials,
    recordEvent: async (event) => trail.sink.deliver([{ type: "audit", event }]),
    drain: (drainOptions) => trail.drain(drainOptions),
    async close() {
      await opened.drain();
      if (localFirst && activity.other && !activity.gating && (activity.boundary || spoolIsDue(trail.denials.spool))) {
        if (!deferredDrain(options.deferDrain, onError)) await trail.drain({ budgetMs: CLOSE_DRAIN_BUDGET_MS });
      }
      await trail.close();
    },
  };
}

/** Whether `defer` took the drain over (false: none given, or it threw, and the caller drains itself). */
function deferredDrain(defer: (() => void) | undefined, onError: OpenToolgateOptions["onError"]): boolean {
  if (defer === undefined) return false;
  try {
    defer();
    return true;
  } catch (error) {
    onError?.(error, "handing the drain to another process (draining here)");
    return false;
  }
}

/** How long a non-gating hook event may spend shipping the spool before it exits (each store operation: 1.5 s). */
const CLOSE_DRAIN_BUDGET_MS = 1_000;

/**
 * A non-gating event drains when its session ended (SessionEnd), or when the oldest spooled batch is older than
 * this: every other event (PostToolUse, UserPromptSubmit, Stop) then costs what a gating event costs (no native
 * module, no database), while records still reach SQLite or Postgres at the session's end or within half a minute
 * of an event. `report`, `tail`, `run` and the dashboard drain before they read, so nothing they show waits for this.
 */
const SPOOL_DUE_MS = 30_000;

function spoolIsDue(spool: { oldestPendingAt(): number | undefined }): boolean {
  const oldest = spool.oldestPendingAt();
  return oldest !== undefined && Date.now() - oldest >= SPOOL_DUE_MS;
}

/** A host's escalation defaults with the config's options over them (family thresholds merged per family). */
function withHostDefaults(
  defaults: CoreOptions | undefined,
  escalation: CoreOptions | undefined,
): CoreOptions | undefined {
  if (defaults === undefined) return escalation;
  if (escalation === undefined) return defaults;
  const familyThresholds = { ...defaults.familyThresholds, ...escalation.familyThresholds };
  return { ...defaults, ...escalation, familyThresholds };
}

/** A config file without an `audit` section gets the section's documented defaults. */
async function auditOptionsOf(config: ToolgateConfig): Promise<AuditOptions> {
  if (config.audit !== undefined) return config.audit;
  const { auditSchema } = await import("../config/audit-schema.js");
  return auditSchema.parse({});
}

/** Mirrors an in-process session's state to the store after each step that recorded something (`toolgate run`). */
function stateMirror(sessions: SessionStateStore): AuditSink {
  return {
    async deliver(effects: readonly Effect[], session: { sessionId: string; state: SessionState }) {
      if (!effects.some((effect) => effect.type === "record" || effect.type === "audit")) return;
      await sessions.update(session.sessionId, () => session.state);
    },
  };
}
