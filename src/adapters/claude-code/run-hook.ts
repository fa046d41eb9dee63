import { readFileSync } from "node:fs";
import type { AuditEvent, DenialRecord } from "../../core/records.js";
import type { AuditSink, PolicyEvaluator } from "../../guard/create-guard.js";
import type { DenialStore } from "../../store/ports.js";
import { type ClaudeHookContext, handleClaudeHook } from "./handle-hook.js";
import { hookDatabasePath, isInteractiveSession } from "./hook-environment.js";
import { parseClaudeHookInput, peekHookEventName } from "./hook-input.js";
import { failClosed, type HookAnswer } from "./hook-output.js";

/** Writes every record and audit event a step produced to the denial store. */
export function denialStoreSink(denials: DenialStore): AuditSink {
  return {
    async deliver(effects) {
      const records: DenialRecord[] = [];
      const events: AuditEvent[] = [];
      for (const effect of effects) {
        if (effect.type === "record") records.push(effect.record);
        if (effect.type === "audit") events.push(effect.event);
      }
      if (records.length > 0) await denials.append(records);
      if (events.length > 0) await denials.appendEvents(events);
    },
  };
}

/**
 * A policy as the PreToolUse hook uses it: Claude Code itself prompts (or, headless, fires PermissionRequest) for
 * an `ask`, so toolgate only pre-empts what Claude Code would deny, and escalates asks in PermissionRequest.
 */
export function asksStayAsks(policy: PolicyEvaluator): PolicyEvaluator {
  return { evaluate: (call, options) => policy.evaluate(call, { ...options, interactive: true }) };
}

export interface RunClaudeCodeHookOptions {
  stdinText: string;
  environment?: NodeJS.ProcessEnv;
  /** loads toolgate's policy (Claude settings hierarchy + toolgate config) for a project directory */
  loadPolicy?: (cwd: string) => Promise<PolicyEvaluator | undefined>;
  /** classifies a successful call's output as an OS-level denial */
  classifyOutput?: ClaudeHookContext["classifyOutput"];
  /** reports internal errors; one line on stderr by default */
  onError?: (message: string) => void;
}

function readTranscript(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * One hook invocation: parse, load the session's state from the store, step, save, answer. Any internal error
 * on PreToolUse or PermissionRequest becomes a deny (fail closed), never an allow.
 */
export async function runClaudeCodeHook(options: RunClaudeCodeHookOptions): Promise<HookAnswer> {
  const environment = options.environment ?? process.env;
  const onError = options.onError ?? ((message: string) => process.stderr.write(`toolgate: ${message}\n`));
  const event = peekHookEventName(options.stdinText) ?? "unknown";
  let closeStore: (() => Promise<void>) | undefined;
  try {
    const input = parseClaudeHookInput(options.stdinText);
    const [{ createGuard }, { createSqliteStore }] = await Promise.all([
      import("../../guard/create-guard.js"),
      import("../../store/sqlite/sqlite-store.js"),
    ]);
    const store = await createSqliteStore({ filename: hookDatabasePath(environment) });
    closeStore = () => store.close();
    const policy = await options.loadPolicy?.(input.cwd ?? process.cwd());
    const guard = createGuard({
      stateStore: store.sessions,
      sinks: [denialStoreSink(store.denials)],
      ...(policy === undefined ? {} : { policy: asksStayAsks(policy) }),
      onError: (error, where) => onError(`${where}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const session = guard.session(input.session_id, {
      interactive: isInteractiveSession(environment),
      host: "claude-code",
    });
    const answer = await handleClaudeHook(input, {
      session,
      interactive: isInteractiveSession(environment),
      readTranscript,
      recordedDenialIds: async () => {
        const rows = await store.denials.query({ sessionId: input.session_id });
        const state = await session.state();
        return new Set([...rows, ...state.records].map((record) => record.toolUseId));
      },
      ...(options.classifyOutput === undefined ? {} : { classifyOutput: options.classifyOutput }),
    });
    await guard.drain();
    return answer;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    onError(`hook ${event} failed: ${message}`);
    return failClosed({ event, reason: message });
  } finally {
    await closeStore?.().catch(() => undefined);
  }
}
