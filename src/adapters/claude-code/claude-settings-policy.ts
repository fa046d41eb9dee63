import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { buildPolicy, type Policy } from "../../node/build-policy.js";

/** The toolgate config files `loadConfig` reads (src/node/load-config.ts), and the env variables it applies. */
const CONFIG_FILE_NAMES = ["toolgate.config.json", ".toolgate.json"];
const CONFIG_ENV = ["TOOLGATE_CONFIG", "TOOLGATE_DENY_THRESHOLD", "TOOLGATE_NUDGE_THRESHOLD"];

/**
 * Whether a toolgate config applies to this project (a file in the directory or an ancestor, the user file, or a
 * config env variable). Without one the hook takes its fast path: no config schema to load.
 */
export function hasToolgateConfig(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): boolean {
  if (CONFIG_ENV.some((name) => (options.env[name] ?? "") !== "")) return true;
  if (existsSync(join(options.homeDir, ".toolgate.json"))) return true;
  let directory = resolve(options.cwd);
  for (;;) {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(join(directory, name)))) return true;
    const parent = dirname(directory);
    if (parent === directory) return false;
    directory = parent;
  }
}

/**
 * The project's live Claude Code settings hierarchy as a policy, exactly as `createPolicy` builds it when no
 * toolgate config exists (Claude Code defaults preset, managed/local/project/user rules, workspace trust), without
 * loading the config schema. Never throws from `evaluate` (an internal error is a deny).
 */
export function claudeSettingsPolicy(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): Policy {
  return buildPolicy({ cwd: options.cwd, homeDir: options.homeDir, env: options.env, config: {} });
}
