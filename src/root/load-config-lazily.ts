import { applyEnvOverrides } from "../config/env-overrides.js";
import type { ToolgateConfig } from "../config/schema.js";
import { NUDGE_THRESHOLD_VARIABLES } from "../hosts/registry.js";
import { configFiles } from "./config-files.js";
import type { LoadConfigOptions, LoadedConfig } from "./load-config.js";

/**
 * `loadConfig`, with the config's schema (zod, about a third of a CLI command's start-up) imported only when a config
 * file applies: without one there is nothing to validate, and the config is `{}` with the environment's overrides.
 */
export async function loadConfigLazily(options: LoadConfigOptions): Promise<LoadedConfig> {
  const files = options.files ?? configFiles(options);
  if (files.length === 0) return noConfig(options.env);
  return (await import("./load-config.js")).loadConfig({ ...options, files });
}

/** what `loadConfig` gives when no config file applies, without loading the schema */
export function noConfig(env: Readonly<Record<string, string | undefined>>): LoadedConfig {
  const overridden = applyEnvOverrides({}, env, { nudgeAliases: NUDGE_THRESHOLD_VARIABLES });
  return {
    config: overridden.config as ToolgateConfig,
    warnings: overridden.warnings,
    sources: overridden.applied.map((name) => `env:${name}`),
  };
}
