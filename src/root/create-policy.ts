import { homedir } from "node:os";
import type { ToolgateConfig } from "../config/schema.js";
import { buildPolicy, type Policy } from "./build-policy.js";
import { loadConfig } from "./load-config.js";

export type { Policy } from "./build-policy.js";

export interface CreatePolicyOptions {
  /** the project directory; relative rules and paths resolve against it (default: process.cwd()) */
  cwd?: string;
  /** default: os.homedir() */
  homeDir?: string;
  /** default: process.env */
  env?: Readonly<Record<string, string | undefined>>;
  /** an already loaded toolgate config; loaded from cwd/home/env when absent */
  config?: ToolgateConfig;
  /** read the Claude Code settings hierarchy and use its defaults preset (default: config.claudeSettings.enabled ?? true) */
  claudeSettings?: boolean;
}

/**
 * What `toolgate check` and the Claude Code hook evaluate: the toolgate config (loaded from the files and env when
 * not given) plus, unless turned off, the Claude Code settings hierarchy of the project and home directory, with the
 * read-only defaults preset for calls no rule matches. Throws CONFIG_INVALID / CONFIG_NOT_FOUND for a broken
 * toolgate config. `evaluate` never throws (an internal error is a deny).
 */
export function createPolicy(options: CreatePolicyOptions = {}): Policy {
  const cwd = options.cwd ?? process.cwd();
  const homeDir = options.homeDir ?? homedir();
  const env = options.env ?? process.env;
  const loaded = options.config === undefined ? loadConfig({ cwd, env, homeDir }) : undefined;
  return buildPolicy({
    cwd,
    homeDir,
    env,
    config: options.config ?? loaded?.config ?? {},
    ...(loaded === undefined ? {} : { loaded }),
    ...(options.claudeSettings === undefined ? {} : { claudeSettings: options.claudeSettings }),
  });
}
