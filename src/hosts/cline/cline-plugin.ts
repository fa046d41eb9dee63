/**
 * `toolgate/cline`: the Cline plugin. `toolgate install cline` writes a one-line plugin file into
 * `.cline/plugins/` (or `~/.cline/plugins/`) that imports this module and forwards Cline's hooks to it; Cline 3.0.x loads it in its plugin
 * sandbox (a Node process per run). The default export is the plugin, wired through the composition root: toolgate's
 * config and policy decide, the session's state lives in the plugin's process and is mirrored to the store for
 * `toolgate run`.
 */
import { openToolgate } from "../../root/open-toolgate.js";
import { noteRunSession } from "../../root/run-sessions.js";
import {
  type ClineGuard,
  type ClineGuardRequest,
  type ClinePlugin,
  type ClinePluginOptions,
  createClinePlugin as createPlugin,
} from "./create-cline-plugin.js";

export type { ClinePlugin, ClinePluginOptions } from "./create-cline-plugin.js";

async function openForCline(request: ClineGuardRequest): Promise<ClineGuard> {
  const toolgate = await openToolgate({
    host: "cline",
    cwd: request.cwd,
    env: request.environment,
    state: "memory",
    mirrorState: true,
    // Claude Code's settings and defaults are not Cline's: toolgate's own config decides
    claudeSettings: false,
    sinks: request.sinks,
    onError: request.onError,
    ...(request.core === undefined ? {} : { core: request.core }),
  });
  return {
    guard: toolgate.guard,
    close: toolgate.close,
    noteSession: (sessionId) => noteRunSession(request.environment, sessionId),
  };
}

/** The plugin with custom options (escalation, extra sinks, ...), wired through the composition root. */
export function createClinePlugin(options: Omit<ClinePluginOptions, "open"> = {}): ClinePlugin {
  return createPlugin({ ...options, open: openForCline });
}

const plugin: ClinePlugin = createClinePlugin();
export default plugin;
