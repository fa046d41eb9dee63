/**
 * `toolgate/ai-sdk` (the adapter half): wrap a Vercel AI SDK `ToolSet` around a guard session. The Node entry
 * (`src/hosts/ai-sdk/ai-sdk-entry.ts`) adds `openToolgateForAiSdk`, which opens the session through the composition root.
 */
export type { ApprovalAnswer } from "./approval-messages.js";
export type { Decider, DeciderDecision, DeciderRequest } from "./decider.js";
export {
  type ApprovalAnswerOptions,
  type ApprovalRequestPart,
  type GuardedTools,
  type GuardToolsOptions,
  guardTools,
} from "./guard-tools.js";
export type { GrantOffer } from "./tool-gate.js";
export { ToolgateAbortError, ToolgateDeniedError } from "./toolgate-abort-error.js";
