import { homedir } from "node:os";
import { openAuditTrail } from "../audit/open-audit-trail.js";
import type { ToolgateConfig } from "../config/schema.js";
import { createRedactOptions } from "../detect-node/redact-options.js";
import { createPolicy, type Policy } from "../node/create-policy.js";
import { loadConfig } from "../node/load-config.js";
import { type AuditSink, createGuard, type Guard } from "./create-guard.js";

export interface OpenGuardOptions {
  /** the project directory (config discovery, Claude settings, relative rules); default process.cwd() */
  cwd?: string;
  env?: Record<string, string | undefined>;
  homeDir?: string;
  /**
   * keep session state in the store, so separate processes (one per hook event) share it; otherwise in an
   * in-process LRU store (plugins, SDK hosts). Default true.
   */
  persistState?: boolean;
  /** read the Claude Code settings hierarchy into the policy (default: the config's `claudeSettings`, else true) */
  claudeSettings?: boolean;
  /** extra sinks beside the configured store, logs and hooks */
  sinks?: AuditSink[];
  onError?: (error: unknown, where: string) => void;
}

export interface OpenedGuard {
  guard: Guard;
  policy: Policy;
  config: ToolgateConfig;
  /** where records and state live, for messages */
  location: string;
  /** waits for deliveries under way, then closes the store */
  close(): Promise<void>;
}

/**
 * The composition root for a toolgate process (CLI, Claude Code hook, Node hosts): loads the config (files + env),
 * builds the policy, opens the store and the audit trail (records, logs, hooks, spool), and wires the guard.
 * Throws ToolgateError CONFIG_INVALID / CONFIG_NOT_FOUND / STORE_CORRUPT / STORE_VERSION with a sentence that
 * names the file and the fix.
 */
export async function openGuard(options: OpenGuardOptions = {}): Promise<OpenedGuard> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? env["HOME"] ?? homedir();
  const loaded = loadConfig({ cwd, env, homeDir });
  const policy = createPolicy({
    cwd,
    env,
    homeDir,
    config: loaded.config,
    ...(options.claudeSettings === undefined ? {} : { claudeSettings: options.claudeSettings }),
  });
  const trail = await openAuditTrail({
    env,
    ...(loaded.config.audit === undefined ? {} : { audit: loaded.config.audit }),
    ...(loaded.config.store === undefined ? {} : { store: loaded.config.store }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const guard = createGuard({
    ...(loaded.config.escalation === undefined ? {} : { core: loaded.config.escalation }),
    warnings: [...loaded.warnings, ...policy.warnings],
    policy,
    ...(options.persistState === false ? {} : { stateStore: trail.stateStore }),
    sinks: [trail.sink, ...(options.sinks ?? [])],
    redaction: createRedactOptions(loaded.config.redaction, env as NodeJS.ProcessEnv),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  return {
    guard,
    policy,
    config: loaded.config,
    location: trail.location,
    async close() {
      await guard.drain();
      await trail.close();
    },
  };
}
