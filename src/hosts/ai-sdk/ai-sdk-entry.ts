/**
 * `toolgate/ai-sdk`: toolgate for agents built on the Vercel AI SDK (`ai` 6, an optional peer). `openToolgateForAiSdk`
 * opens one guard session through the composition root (config files, policy, store, audit trail) and wraps
 * ToolSets for it; `guardTools` wraps a ToolSet around a session you already have (`createGuard` in memory, say).
 */
import { randomUUID } from "node:crypto";
import type { ToolSet } from "ai";
import type { GuardSession } from "../../guard/types.js";
import { type OpenToolgateOptions, openToolgate, type Toolgate } from "../../root/open-toolgate.js";
import { noteRunSession } from "../../root/run-sessions.js";
import { type GuardedTools, type GuardToolsOptions, guardTools } from "./guard-tools.js";

export * from "./index.js";

export interface OpenToolgateForAiSdkOptions extends Omit<OpenToolgateOptions, "host"> {
  /** the session id records are filed under (default: a random UUID) */
  sessionId?: string;
  /**
   * `true`: the app has an approval UI that answers the SDK's approval requests (an ask stays an ask; repeated
   * declines offer a session grant). `false` (default): nobody answers; an ask is denied and escalation follows the
   * headless strategy (`abort` by default).
   */
  interactive?: boolean;
  /** recorded with the session (default `ai-sdk`) */
  host?: string;
  labels?: Record<string, string>;
}

export interface ToolgateForAiSdk {
  session: GuardSession;
  /** the composition root's result (policy, config, store location, ...) */
  toolgate: Toolgate;
  /** wraps a ToolSet for this session (see `guardTools`) */
  guardTools<TOOLS extends ToolSet>(tools: TOOLS, options?: Omit<GuardToolsOptions, "session">): GuardedTools<TOOLS>;
  /** ends the session (flushes its records to the per-turn hooks) and waits for every record to reach the store */
  close(): Promise<void>;
}

/**
 * Opens toolgate for an AI SDK agent: one guard session, state in memory (mirrored to the store, and the session
 * noted for `toolgate run` when it runs this process),
 * the config's policy. The Claude Code settings hierarchy is NOT read unless `claudeSettings: true` (an AI SDK app's
 * tools are its own); a call no toolgate rule matches is left to the tool's own `needsApproval`.
 */
export async function openToolgateForAiSdk(options: OpenToolgateForAiSdkOptions = {}): Promise<ToolgateForAiSdk> {
  const { sessionId, interactive, host, labels, ...rest } = options;
  const toolgate = await openToolgate({
    state: "memory",
    mirrorState: true,
    claudeSettings: false,
    ...rest,
    // under `toolgate run`, an abort is noted for run: the wrapper's ToolgateAbortError ends the generation, and run
    // ends an app that goes on anyway (after its grace)
    ...(rest.sinks === undefined ? {} : { sinks: rest.sinks }),
    host: host ?? "ai-sdk",
  });
  const id = sessionId ?? randomUUID();
  // under `toolgate run`, the run links this session (its records and abort decide the run's exit code)
  noteRunSession(rest.env ?? process.env, id);
  const session = toolgate.guard.session(id, {
    interactive: interactive === true,
    host: host ?? "ai-sdk",
    ...(labels === undefined ? {} : { labels }),
  });
  let closed: Promise<void> | undefined;
  return {
    session,
    toolgate,
    guardTools: (tools, guardOptions = {}) => guardTools(tools, { ...guardOptions, session }),
    close() {
      closed ??= (async () => {
        try {
          await session.end();
        } finally {
          await toolgate.close();
        }
      })();
      return closed;
    },
  };
}
