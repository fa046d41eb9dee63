import { compileCoreConfig } from "../core/compile-config.js";
import type { CompiledConfig } from "../core/config.js";
import { defaultPorts } from "../guard/default-ports.js";
import { loadToolgateSetup } from "../root/load-toolgate-setup.js";
import { type ReadSide, readSideOf } from "../root/read-side.js";

export interface AnalysisSetup {
  /** the core config the replay uses: the user's escalation settings and redaction, or the defaults */
  config: CompiledConfig;
  /** the user's policy: whether a grant could let a call through (false when a deny rule wins) */
  canGrant: (call: { tool: string; input: unknown }) => boolean;
  /** the store the config and environment select, for `--save` (opened through the composition root) */
  openStore: ReadSide["openStore"];
  /** the files and env variables the config came from */
  sources: readonly string[];
}

/**
 * What `toolgate analyze` replays with: the composition root's config half (`loadToolgateSetup`: the same config
 * discovery, env overrides, policy and redaction as every hook), compiled for the pure core. Throws the config's
 * CONFIG_* errors.
 */
export async function loadAnalysisSetup(options: {
  cwd: string;
  homeDir: string;
  env: Readonly<Record<string, string | undefined>>;
}): Promise<AnalysisSetup> {
  const setup = await loadToolgateSetup({ cwd: options.cwd, homeDir: options.homeDir, env: { ...options.env } });
  const config = compileCoreConfig({
    ports: defaultPorts(setup.redaction === undefined ? {} : { redaction: setup.redaction }),
    ...(setup.config.escalation === undefined ? {} : { options: setup.config.escalation }),
  });
  return {
    config,
    canGrant: (call) => setup.policy.canGrant(call, { interactive: false }),
    openStore: readSideOf(setup.config, options.env).openStore,
    sources: setup.sources,
  };
}
