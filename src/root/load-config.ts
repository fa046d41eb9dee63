import { applyEnvOverrides, type ConfigWarning } from "../config/env-overrides.js";
import { mergeConfigs } from "../config/merge-configs.js";
import { parseConfig } from "../config/parse-config.js";
import type { ToolgateConfig } from "../config/schema.js";
import { NUDGE_THRESHOLD_VARIABLES } from "../hosts/registry.js";
import { configFiles } from "./config-files.js";
import { readJsonFile } from "./read-json-file.js";

export interface LoadConfigOptions {
  /** where to look for the project config (this directory and its ancestors) */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** the user config is `<homeDir>/.toolgate.json` */
  homeDir: string;
  /** the files to read, when the caller already found them (`configFiles`) */
  files?: readonly string[];
}

export interface LoadedConfig {
  config: ToolgateConfig;
  /** problems that did not stop loading (a non-numeric env value); the core emits them as warning effects */
  warnings: ConfigWarning[];
  /** the files read, lowest precedence first, and the env variables applied */
  sources: string[];
}

/**
 * Loads the toolgate config: `$TOOLGATE_CONFIG` when set (it must exist); otherwise the user file
 * `~/.toolgate.json` overlaid by the nearest `toolgate.config.json` or `.toolgate.json` in the working directory
 * or an ancestor. Rule lists are concatenated, other values from the project file win. Env overrides last.
 * Throws CONFIG_NOT_FOUND / CONFIG_INVALID ToolgateErrors that name the file and the key.
 */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const files = options.files ?? configFiles(options);
  let config: ToolgateConfig = {};
  for (const file of files) {
    // a missing file is empty; a file holding `null` is invalid like `[]` (`?? {}` used to accept it silently)
    const value = readJsonFile(file);
    const parsed = parseConfig(value === undefined ? {} : value, { file });
    if (!parsed.ok) throw parsed.error;
    config = mergeConfigs(config, parsed.config);
  }
  const overridden = applyEnvOverrides(config, options.env, { nudgeAliases: NUDGE_THRESHOLD_VARIABLES });
  return {
    config: overridden.config,
    warnings: overridden.warnings,
    sources: [...files, ...overridden.applied.map((name) => `env:${name}`)],
  };
}

export { CONFIG_FILE_NAMES, findProjectConfig } from "./config-files.js";
