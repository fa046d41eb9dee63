import { homedir } from "node:os";
import type { ConfigWarning } from "../config/env-overrides.js";
import type { ToolgateConfig } from "../config/schema.js";
import type { RedactOptions } from "../detect/redaction-types.js";
import { buildPolicy } from "./build-policy.js";
import { configFiles } from "./config-files.js";
import { hostPolicyRules } from "./host-policy-rules.js";
import { loadConfigLazily } from "./load-config-lazily.js";
import { type PolicyHandle, policyBuilt, policyOnDemand } from "./policy-handle.js";

export interface ToolgateSetupOptions {
  /** the project directory (config discovery, Claude settings, relative rules); default process.cwd() */
  cwd?: string;
  env?: Record<string, string | undefined>;
  homeDir?: string;
  /** read the Claude Code settings hierarchy into the policy (default: the config's `claudeSettings`, else true) */
  claudeSettings?: boolean;
  /**
   * the host served: a host with permission files of its own (its descriptor's `permissionRules`) has them
   * evaluated beside toolgate's
   */
  host?: string;
  /**
   * build the policy when it is first needed (`policy.prepare()`), not before this returns: a hook event that
   * consults no rule then reads no permission file and compiles no rule (default false: built at once)
   */
  policyOnDemand?: boolean;
}

/** The config half of the composition root: what every toolgate process decides with, before any store opens. */
export interface ToolgateSetup {
  cwd: string;
  env: Record<string, string | undefined>;
  homeDir: string;
  /** the validated config (`{}` when no config file applies), env overrides applied */
  config: ToolgateConfig;
  /** whether a config file applies (else nothing was validated: the no-config fast path) */
  hasConfigFile: boolean;
  /** the config files read and env variables applied, lowest precedence first */
  sources: string[];
  /** problems that did not stop loading (the core emits them once per session); the policy's own are its `warnings` */
  warnings: ConfigWarning[];
  /** built already, unless `policyOnDemand` asked for it to be built on first use */
  policy: PolicyHandle;
  /** redaction options from the config (extension patterns, keyed hash); undefined: the defaults */
  redaction: RedactOptions | undefined;
}

/**
 * Discovers and loads the config (files + env; without a config file no schema is loaded at all), builds the policy
 * (before it returns, or on first use with `policyOnDemand`) and the redaction options. `openToolgate` builds on it;
 * commands that only decide or replay (`analyze`) use it alone. Throws ToolgateError CONFIG_INVALID /
 * CONFIG_NOT_FOUND naming the file, the key and the fix.
 */
export async function loadToolgateSetup(options: ToolgateSetupOptions = {}): Promise<ToolgateSetup> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const homeDir = options.homeDir ?? env["HOME"] ?? homedir();
  const files = configFiles({ cwd, env, homeDir });
  const loaded = await loadConfigLazily({ cwd, env, homeDir, files });
  const { config } = loaded;
  const build = async () => {
    const hostPolicy =
      options.host === undefined ? undefined : await hostPolicyRules({ host: options.host, homeDir, cwd, env });
    return buildPolicy({
      cwd,
      homeDir,
      env,
      config,
      ...(hostPolicy === undefined ? {} : { hostPolicy }),
      ...(files.length === 0 ? {} : { loaded }),
      ...(options.claudeSettings === undefined ? {} : { claudeSettings: options.claudeSettings }),
    });
  };
  const policy = options.policyOnDemand === true ? policyOnDemand(build) : policyBuilt(await build());
  const redaction =
    config.redaction === undefined
      ? undefined
      : (await import("../detect-node/redact-options.js")).createRedactOptions(
          config.redaction,
          env as NodeJS.ProcessEnv,
        );
  return {
    cwd,
    env,
    homeDir,
    config,
    hasConfigFile: files.length > 0,
    sources: loaded.sources,
    warnings: loaded.warnings,
    policy,
    redaction,
  };
}

/** No config file: the env overrides over an empty config, with no schema loaded. */
