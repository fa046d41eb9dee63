/**
 * `toolgate/opencode`: the opencode plugin. Load it from opencode.json (`"plugin": ["file:///.../opencode.js"]`)
 * or run `toolgate install opencode`. The default export is the plugin module opencode 1.18 expects
 * (`{ id, server }`); `createToolgatePlugin(options)` builds one with custom options for a `.opencode/plugins/` file.
 */
import { createToolgatePlugin } from "./create-toolgate-plugin.js";

export { createToolgatePlugin, type ToolgatePluginOptions } from "./create-toolgate-plugin.js";
export { type OpencodeDenialText, recognizeOpencodeDenial } from "./opencode-denial-text.js";
export { isRealUserMessage, type OpencodeSignal, opencodeSignal } from "./opencode-signal.js";

/** The plugin with its defaults (environment: OPENCODE_DENY_THRESHOLD, TOOLGATE_NUDGE_THRESHOLD, TOOLGATE_DB). */
export const ToolgatePlugin = createToolgatePlugin();

export default { id: "toolgate", server: ToolgatePlugin };
