/**
 * `toolgate/opencode`: the opencode plugin. Load it from opencode.json (`"plugin": ["file:///.../opencode-plugin.js"]`)
 * or run `toolgate install opencode`. The default export is the plugin module opencode 1.18 expects
 * (`{ id, server }`), wired through the composition root; `createToolgatePlugin(options)` builds one with custom
 * options for a `.opencode/plugins/` file.
 */
import type { Plugin } from "@opencode-ai/plugin";
import { openToolgate } from "../../root/open-toolgate.js";
import { noteRunSession } from "../../root/run-sessions.js";
import {
  createToolgatePlugin as createPlugin,
  type OpencodeGuard,
  type OpencodeGuardRequest,
  type ToolgatePluginOptions,
} from "./create-toolgate-plugin.js";

export type { ToolgatePluginOptions } from "./create-toolgate-plugin.js";
export { type OpencodeDenialText, recognizeOpencodeDenial } from "./opencode-denial-text.js";
export { isRealUserMessage, type OpencodeSignal, opencodeSignal } from "./opencode-signal.js";

/** Opens the plugin's guard through the one composition root: in-process state, mirrored for `toolgate run`. */
async function openForOpencode(request: OpencodeGuardRequest): Promise<OpencodeGuard> {
  const toolgate = await openToolgate({
    host: request.host,
    cwd: request.directory,
    env: request.environment,
    state: "memory",
    mirrorState: true,
    // opencode's own permission rules decide; toolgate counts what it reports (and enforces a policy only when given)
    enforce: request.policy ?? false,
    ports: request.ports,
    classifyFailure: request.classifyFailure,
    warnings: request.warnings,
    // under `toolgate run`, an abort is noted for run: the plugin stops the opencode session itself (`stopOnAbort`),
    // and run ends an agent that goes on anyway (after its grace)
    ...(request.sinks === undefined ? {} : { sinks: request.sinks }),
    onError: request.onError,
    ...(request.core === undefined ? {} : { core: request.core }),
  });
  return {
    guard: toolgate.guard,
    recordEvent: toolgate.recordEvent,
    close: toolgate.close,
    noteSession: (sessionId) => noteRunSession(request.environment, sessionId),
  };
}

/** The plugin with custom options (escalation, extra sinks, ...), wired through the composition root. */
export function createToolgatePlugin(options: Omit<ToolgatePluginOptions, "open"> = {}): Plugin {
  return createPlugin({ ...options, open: openForOpencode });
}

/** A host name from the plugin's options in the config (`[url, { "host": "<name>" }]`): lower-case words only. */
function hostOption(options: unknown): string | undefined {
  const host = typeof options === "object" && options !== null ? (options as { host?: unknown }).host : undefined;
  return typeof host === "string" && /^[a-z][a-z0-9-]{0,39}$/.test(host) ? host : undefined;
}

/**
 * The plugin with its defaults (environment: OPENCODE_DENY_THRESHOLD, TOOLGATE_NUDGE_THRESHOLD, TOOLGATE_DB); a host
 * built on opencode's plugin system names itself in the plugin's options (`toolgate install <host>` writes them).
 */
export const ToolgatePlugin: Plugin = (input, options) => {
  const host = hostOption(options);
  return createToolgatePlugin(host === undefined ? {} : { host })(input);
};

const plugin: { id: string; server: Plugin } = { id: "toolgate", server: ToolgatePlugin };
export default plugin;
