import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import pino, { type Logger } from "pino";
import type { Effect } from "../core/effects.js";
import type { AuditEvent, DenialRecord } from "../core/records.js";
import { canonicalTool, toolFamily } from "../core/tool-families.js";
import { redactText } from "../detect/redact.js";
import type { HookOutcome } from "./hook-dispatcher.js";

export interface AuditLoggerOptions {
  /** `stderr` (default here; the config's default is `off`), `stdout`, `off`, or a file path (appended to, 0600) */
  destination?: string;
  level?: string;
  /** an existing pino logger to write through instead */
  logger?: Logger;
}

/**
 * JSON logs of the audit trail (pino). One WARN `agent.permission.denied` line per denial (tool, canonicalTool, toolFamily, source, reason,
 * redacted summary), an `agent.session.summary` line when a session ends (`permissionDenialCount` always present,
 * zero too, and `permissionDeniedTools`), INFO lines for the other audit events, WARN for hook failures. Writes are
 * synchronous so a short-lived hook process loses nothing at exit.
 */
export function createAuditLogger(options: AuditLoggerOptions = {}) {
  const logger = options.logger ?? createPino(options);
  return {
    logger,
    effects(effects: readonly Effect[]): void {
      for (const effect of effects) {
        if (effect.type === "record") logDenial(logger, effect.record);
        else if (effect.type === "audit") logEvent(logger, effect.event);
        else if (effect.type === "warning")
          logger.warn({ event: "toolgate.warning", code: effect.code }, effect.message);
        else if (effect.type === "flush" && effect.lost > 0)
          logger.warn(
            { event: "toolgate.records.evicted", lost: effect.lost, highWaterMark: effect.highWaterMark },
            "denial records were evicted from the session buffer before their hooks ran",
          );
      }
    },
    hookOutcome(outcome: HookOutcome): void {
      if (outcome.ok) {
        logger.debug({
          event: "toolgate.hook.delivered",
          hook: outcome.hook,
          hookEvent: outcome.event,
          durationMs: outcome.durationMs,
        });
        return;
      }
      logger.warn(
        {
          event: "toolgate.hook.failed",
          hook: outcome.hook,
          hookEvent: outcome.event,
          key: outcome.key,
          // a hook's error and stderr may quote its own secrets (a webhook URL with a token): redacted like the rest
          error: outcome.error === undefined ? undefined : redactText(outcome.error),
          durationMs: outcome.durationMs,
          stderr: outcome.stderr === undefined ? undefined : redactText(outcome.stderr.slice(0, 2_000)),
        },
        "audit hook failed; the delivery is kept and retried",
      );
    },
  };
}

export type AuditLogger = ReturnType<typeof createAuditLogger>;

function logDenial(logger: Logger, record: DenialRecord): void {
  logger.warn(
    {
      event: "agent.permission.denied",
      sessionId: record.sessionId,
      turn: record.turn,
      tool: record.tool,
      canonicalTool: record.canonicalTool ?? canonicalTool(record.tool),
      toolFamily: record.toolFamily ?? toolFamily(record.tool),
      toolUseId: record.toolUseId,
      source: record.source,
      reason: record.reason,
      rule: record.rule,
      inputSummary: record.inputSummary,
      signature: record.signature,
      agentId: record.agentId,
      seq: record.seq,
    },
    "agent.permission.denied",
  );
}

function logEvent(logger: Logger, event: AuditEvent): void {
  if (event.kind === "denial.recorded") return; // the record line says it
  if (event.kind === "session.summary") {
    const detail = event.detail;
    logger.info(
      {
        event: "agent.session.summary",
        sessionId: event.sessionId,
        turn: event.turn,
        ...detail,
        permissionDenialCount: typeof detail.permissionDenialCount === "number" ? detail.permissionDenialCount : 0,
        permissionDeniedTools: (detail.permissionDeniedTools as Record<string, number> | undefined) ?? {},
      },
      "agent.session.summary",
    );
    return;
  }
  const level = event.kind === "run.aborted" ? "error" : "info";
  logger[level](
    {
      event: `toolgate.${event.kind}`,
      sessionId: event.sessionId,
      turn: event.turn,
      tool: event.tool,
      toolUseId: event.toolUseId,
      agentId: event.agentId,
      detail: event.detail,
    },
    event.kind,
  );
}

/**
 * A log file is this user's alone, as the store and the spool are: its folder is made 0700 when toolgate makes it,
 * the file 0600 when toolgate creates it (lines hold redacted commands and paths). An existing file keeps its mode.
 */
function privateFile(path: string) {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  return pino.destination({ dest: path, sync: true, append: true, mode: 0o600 });
}

function createPino(options: AuditLoggerOptions): Logger {
  const destination = options.destination ?? "stderr";
  const level = options.level ?? "info";
  if (destination === "off") return pino({ level: "silent" });
  const stream =
    destination === "stderr"
      ? pino.destination({ dest: 2, sync: true })
      : destination === "stdout"
        ? pino.destination({ dest: 1, sync: true })
        : privateFile(destination);
  return pino({ level, base: { name: "toolgate" } }, stream);
}
