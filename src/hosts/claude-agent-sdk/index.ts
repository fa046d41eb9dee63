/**
 * `toolgate/claude-agent-sdk`: toolgate for `@anthropic-ai/claude-agent-sdk` (an optional peer; only its types are
 * imported). Wrap `canUseTool`, add `hooks`, and observe the message stream.
 */
export {
  type GrantOffer,
  type GuardCanUseToolOptions,
  type GuardedCanUseTool,
  guardCanUseTool,
} from "./guard-can-use-tool.js";
export { guardHooks } from "./guard-hooks.js";
export {
  type CallDecision,
  type ObservationReport,
  type Observed,
  type ObservedDenial,
  type ObserveOptions,
  observe,
  withPermissionDenials,
} from "./observe.js";
export { sessionGrantUpdate } from "./session-grant-update.js";
