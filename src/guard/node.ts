/**
 * `toolgate/node`: the Node-only entry for processes that read config files and open stores (CLIs, hook
 * commands, servers). The root entry stays runtime-neutral.
 */
export { type AuditTrail, openAuditTrail } from "../audit/open-audit-trail.js";
export { type CreatePolicyOptions, createPolicy, type Policy } from "../node/create-policy.js";
export { type LoadConfigOptions, type LoadedConfig, loadConfig } from "../node/load-config.js";
export { openStore } from "../store/open-store.js";
export { type OpenedGuard, type OpenGuardOptions, openGuard } from "./open-guard.js";
