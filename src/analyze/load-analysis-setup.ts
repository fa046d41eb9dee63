import type { StoreOptions } from "../config/store-schema.js";
import { compileCoreConfig } from "../core/compile-config.js";
import type { CompiledConfig } from "../core/config.js";
import { createRedactOptions } from "../detect-node/redact-options.js";
import { defaultPorts } from "../guard/default-ports.js";
import { createPolicy } from "../node/create-policy.js";
import { loadConfig } from "../node/load-config.js";

export interface AnalysisSetup {
  /** the core config the replay uses: the user's escalation settings and redaction, or the defaults */
  config: CompiledConfig;
  /** the user's policy: whether a grant could let a call through (false when a deny rule wins) */
  canGrant: (call: { tool: string; input: unknown }) => boolean;
  /** the store section of the config, for `--save` */
  store?: StoreOptions;
  /** the files and env variables the config came from */
  sources: readonly string[];
}

/**
 * The one place `toolgate analyze` loads the user's toolgate config and policy (today's load-config +
 * create-policy; to be swapped for the composition root's API). Throws the config's CONFIG_* errors.
 */
export function loadAnalysisSetup(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): AnalysisSetup {
  const loaded = loadConfig(options);
  const policy = createPolicy({ ...options, config: loaded.config });
  const redaction = createRedactOptions(loaded.config.redaction, options.env as NodeJS.ProcessEnv);
  const config = compileCoreConfig({
    ports: defaultPorts({ redaction }),
    ...(loaded.config.escalation === undefined ? {} : { options: loaded.config.escalation }),
  });
  return {
    config,
    canGrant: (call) => policy.canGrant(call, { interactive: false }),
    ...(loaded.config.store === undefined ? {} : { store: loaded.config.store as StoreOptions }),
    sources: loaded.sources,
  };
}
