import * as z from "zod";

/**
 * The `audit` section of toolgate.config.json: per-denial and per-event hooks, JSON logs, OpenTelemetry. Owned by
 * the audit layer; the root schema (config/schema.ts) imports it.
 */

/** `permission_denied` (one per denial record, batched per turn) or an audit event kind; `*` for every one. */
export const HOOK_EVENTS = [
  "permission_denied",
  "escalation.reached",
  "grant.offered",
  "grant.recorded",
  "grant.declined",
  "grant.revoked",
  "nudge.sent",
  "run.aborted",
  "loop.detected",
  "session.summary",
  "*",
] as const;

export const hookSchema = z
  .object({
    /** a name for logs and the spool (defaults to the command or URL) */
    name: z.string().min(1).optional(),
    /** which events fire this hook (default `permission_denied`) */
    events: z.array(z.enum(HOOK_EVENTS)).min(1).default(["permission_denied"]),
    /** tool-name globs (`Bash`, `mcp__github__*`); absent: every tool */
    tools: z.array(z.string().min(1)).min(1).optional(),
    /** a shell command: the payload arrives as JSON on stdin, with TOOLGATE_HOOK_EVENT and TOOLGATE_HOOK_TOOL */
    command: z.string().min(1).optional(),
    /** an HTTP(S) URL the payload is POSTed to as JSON */
    url: z.url().optional(),
    headers: z.record(z.string(), z.string()).optional(),
    /** the child is killed / the request aborted after this long (30000 ms) */
    timeoutMs: z.number().int().positive().max(600_000).default(30_000),
    /** further attempts after a failed webhook delivery, with doubling backoff (3) */
    retries: z.number().int().min(0).max(10).default(3),
  })
  .strict()
  .refine((hook) => (hook.command === undefined) !== (hook.url === undefined), {
    message: "a hook needs exactly one of `command` or `url`",
  });

export const auditSchema = z
  .object({
    hooks: z.array(hookSchema).default([]),
    logs: z
      .object({
        /**
         * `off` (default: logs are opt-in, so a config that names no destination behaves as no config at all and an
         * app embedding toolgate gets no JSON lines on its stderr), `stderr`, `stdout`, or a file path (appended to)
         */
        destination: z.string().min(1).default("off"),
        level: z.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).default("info"),
      })
      .strict()
      .default({ destination: "off", level: "info" }),
    /** emit an OpenTelemetry span event and counter per denial when the host registered a provider (true) */
    openTelemetry: z.boolean().default(true),
  })
  .strict();

export type HookOptions = z.infer<typeof hookSchema>;
export type HookEventName = (typeof HOOK_EVENTS)[number];
export type AuditOptions = z.infer<typeof auditSchema>;

/** what a config file or caller may write (defaults not applied yet) */
export type AuditInput = z.input<typeof auditSchema>;
