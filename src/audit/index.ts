/** `audit/`: events out — store writes, per-denial hooks, JSON logs, OpenTelemetry. */
export { type AuditLogger, type AuditLoggerOptions, createAuditLogger } from "./audit-logger.js";
export {
  type AuditListeners,
  type AuditSinkOptions,
  type AuditTrailSink,
  createAuditSink,
} from "./create-audit-sink.js";
export { createHookDispatcher, type HookOutcome } from "./hook-dispatcher.js";
export { createOpenTelemetryRecorder } from "./open-telemetry.js";
export { postWebhook, type WebhookResult } from "./post-webhook.js";
export {
  type AuditEventPayload,
  auditEventPayload,
  denialPayload,
  type HookPayload,
  idempotencyKey,
  type PermissionDeniedPayload,
} from "./record-payload.js";
export { type HookRunResult, runCommandHook } from "./run-command-hook.js";
