import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import type { PolicyEvaluator } from "../../guard/create-guard.js";
import { handleClaudeHook } from "./handle-hook.js";
import { isInteractiveSession } from "./hook-environment.js";
import { parseClaudeHookInput, peekHookEventName } from "./hook-input.js";
import { failClosed, type HookAnswer } from "./hook-output.js";
import { openHookWiring } from "./hook-wiring.js";

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
 * One hook invocation: parse, load the project's toolgate config and Claude settings, load the session's state
 * from the store, step, save, answer. Any internal error on PreToolUse or PermissionRequest becomes a deny (fail
 * closed), never an allow.
 */
export async function runClaudeCodeHook(options: RunClaudeCodeHookOptions): Promise<HookAnswer> {
  const environment = options.environment ?? process.env;
  const onError = options.onError ?? ((message: string) => process.stderr.write(`toolgate: ${message}\n`));
  const event = peekHookEventName(options.stdinText) ?? "unknown";
  let close: (() => Promise<void>) | undefined;
  try {
    const input = parseClaudeHookInput(options.stdinText);
    const cwd = environment.CLAUDE_PROJECT_DIR ?? input.cwd ?? process.cwd();
    const homeDir = environment.HOME ?? homedir();
    const [{ createGuard }, { defaultClassifyFailure }, wiring] = await Promise.all([
      import("../../guard/create-guard.js"),
      import("../../guard/classify-failure.js"),
      openHookWiring({ cwd, homeDir, environment, onError }),
    ]);
    close = wiring.close;
    const guard = createGuard({
      ...(wiring.core === undefined ? {} : { core: wiring.core }),
      warnings: wiring.warnings,
      ...(wiring.redaction === undefined ? {} : { redaction: wiring.redaction }),
      policy: asksStayAsks(wiring.policy),
      stateStore: wiring.stateStore,
      sinks: [wiring.sink],
      onError: (error, where) => onError(`${where}: ${error instanceof Error ? error.message : String(error)}`),
    });
    const interactive = isInteractiveSession(environment);
    const session = guard.session(input.session_id, { interactive, host: "claude-code" });
    const answer = await handleClaudeHook(input, {
      session,
      interactive,
      readTranscript,
      recordedDenialIds: async () => {
        const { openStore } = await import("../../store/open-store.js");
        const store = await openStore({
          env: environment,
          ...(wiring.store ? { config: wiring.store } : {}),
        });
        try {
          const rows = await store.denials.query({ sessionId: input.session_id });
          const state = await session.state();
          return new Set([...rows, ...state.records].map((record) => record.toolUseId));
        } finally {
          await store.close();
        }
      },
      classifyOutput: ({ tool, output }) => defaultClassifyFailure({ tool, output }) !== undefined,
    });
    await guard.drain();
    return answer;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    onError(`hook ${event} failed: ${message}`);
    return failClosed({ event, reason: message });
  } finally {
    await close?.().catch(() => undefined);
  }
}
