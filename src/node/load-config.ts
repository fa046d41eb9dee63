import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { applyEnvOverrides, type ConfigWarning } from "../config/env-overrides.js";
import { mergeConfigs } from "../config/merge-configs.js";
import { parseConfig } from "../config/parse-config.js";
import type { ToolgateConfig } from "../config/schema.js";
import { ToolgateError } from "../core/errors.js";
import { readJsonFile } from "./read-json-file.js";

export const CONFIG_FILE_NAMES = ["toolgate.config.json", ".toolgate.json"] as const;

export interface LoadConfigOptions {
  /** where to look for the project config (this directory and its ancestors) */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** the user config is `<homeDir>/.toolgate.json` */
  homeDir: string;
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
  const files: string[] = [];
  const explicit = options.env.TOOLGATE_CONFIG;
  if (explicit !== undefined && explicit !== "") {
    const file = resolve(options.cwd, explicit);
    if (!existsSync(file)) {
      throw new ToolgateError({
        code: "CONFIG_NOT_FOUND",
        message: `TOOLGATE_CONFIG names ${file}, which does not exist. Point it at a toolgate.config.json or unset it.`,
        data: { file },
      });
    }
    files.push(file);
  } else {
    const user = join(options.homeDir, ".toolgate.json");
    const project = findProjectConfig(options.cwd);
    if (existsSync(user) && user !== project) files.push(user);
    if (project !== undefined) files.push(project);
  }
  let config: ToolgateConfig = {};
  for (const file of files) {
    const parsed = parseConfig(readJsonFile(file) ?? {}, { file });
    if (!parsed.ok) throw parsed.error;
    config = mergeConfigs(config, parsed.config);
  }
  const overridden = applyEnvOverrides(config, options.env);
  return {
    config: overridden.config,
    warnings: overridden.warnings,
    sources: [...files, ...overridden.applied.map((name) => `env:${name}`)],
  };
}

/** The nearest toolgate.config.json or .toolgate.json from `cwd` upwards. */
export function findProjectConfig(cwd: string): string | undefined {
  let directory = resolve(cwd);
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const file = join(directory, name);
      if (existsSync(file)) return file;
    }
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}
