/**
 * `toolgate/node`: the Node-only entry for processes that read config files and open stores (CLIs, hook
 * commands, servers, your own agent loop). `openToolgate` is the one composition root; the root entry (`toolgate`)
 * stays runtime-neutral.
 */

export { hostDenialTables } from "../hosts/registry.js";
export { openStore } from "../store/open-store.js";
export { CONFIG_FILE_NAMES, configFiles, findProjectConfig } from "./config-files.js";
export { type CreatePolicyOptions, createPolicy, type Policy } from "./create-policy.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "./load-config.js";
export { type OpenToolgateOptions, openToolgate, type Toolgate } from "./open-toolgate.js";
