/**
 * toolgate: the root entry. Runtime-neutral (no native module, no `node:` import): the pure denial state machine,
 * the guard that wires it for in-process hosts, detection and redaction, and the policy engine. Stores and host
 * adapters live in subpaths (`toolgate/store/sqlite`, one per in-process host, ...).
 * Adding a line here is an API decision.
 */

export { canonicalJson } from "./core/canonical-json.js";
// the reducer and its vocabulary
export { compileCoreConfig, DEFAULT_THRESHOLDS } from "./core/compile-config.js";
export type {
  CallFacts,
  CompiledConfig,
  CoreOptions,
  CorePorts,
  HeadlessStrategy,
  LoopOptions,
  NudgeOptions,
  TemplateName,
  ToolThresholdOption,
} from "./core/config.js";
export type { Behavior, Decision } from "./core/decision.js";
export type {
  AbortEffect,
  AuditEffect,
  BlockEffect,
  Effect,
  EscalationStage,
  FallbackEffect,
  FlushEffect,
  Grant,
  GrantScope,
  GuidanceEffect,
  LoopEffect,
  NudgeEffect,
  OfferGrantEffect,
  RecordEffect,
  SkipEffect,
  WarningEffect,
} from "./core/effects.js";
export { ToolgateError, type ToolgateErrorCode } from "./core/errors.js";
export type { DenialSource, OsDenialKind, ToolCall, ToolgateEvent } from "./core/events.js";
export { initialState } from "./core/initial-state.js";
export type { AuditEvent, AuditEventKind, DenialRecord } from "./core/records.js";
export { recordsLostSince, recordsSince } from "./core/records-since.js";
export { callSignature } from "./core/signature.js";
export type { SessionState } from "./core/state.js";
export { type StepResult, step } from "./core/step.js";
export { DEFAULT_TEMPLATES } from "./core/templates.js";
export { classifyOsDenial } from "./detect/classify-os-denial.js";
// detection and redaction
export { createRedactor, redactText, redactValue, redactWithFindings } from "./detect/redact.js";
export { summarizeInput } from "./detect/summarize-input.js";
// the guard: what in-process hosts and adapters use
export {
  type AuditSink,
  createGuard,
  type Guard,
  type GuardOptions,
  type PolicyEvaluator,
} from "./guard/create-guard.js";
export { defaultPorts } from "./guard/default-ports.js";
export { createLruStateStore } from "./guard/lru-state-store.js";
export { abortOf, nudgeOf, textForModel } from "./guard/text-for-model.js";
export type {
  CallOptions,
  DecideResult,
  DeniedOptions,
  FailedOptions,
  GuardSession,
  GuardSessionOptions,
} from "./guard/types.js";
// policy
export { commandPattern } from "./policy/command-pattern.js";
export { minimumGrantScope } from "./policy/grants/minimum-grant-scope.js";
export { suggestRule } from "./policy/grants/suggest-rule.js";
// stores: the in-memory twins and the ports (SQLite and Postgres are subpaths: toolgate/store/sqlite, .../postgres)
export { createMemoryDenialStore, createMemorySessionStateStore, createMemoryStore } from "./store/memory-store.js";
export type {
  DenialQuery,
  DenialReport,
  DenialStore,
  ReportQuery,
  SessionStateStore,
  Store,
  StoredAuditEvent,
  StoredDenial,
  VersionedState,
} from "./store/ports.js";
