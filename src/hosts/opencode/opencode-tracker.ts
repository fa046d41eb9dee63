import type { AbortEffect, Effect } from "../../core/effects.js";
import type { DenialSource, ToolCall } from "../../core/events.js";
import type { GuardSession, GuardSessionOptions } from "../../guard/types.js";
import { describeHostStop } from "./describe-host-stop.js";
import { EffectDelivery } from "./effect-delivery.js";
import { recognizeOpencodeDenial } from "./opencode-denial-text.js";
import { type OpencodeSignal, opencodeSignal } from "./opencode-signal.js";

/** How the tracker reaches opencode and the person; the plugin wires these to the SDK client and stderr. */
export interface OpencodeDelivery {
  /** a note the model sees in its next request without starting a turn (`promptAsync` with `noReply: true`) */
  note(sessionId: string, text: string): Promise<void>;
  /** stop the session's agent loop (`session.abort`) */
  stop(sessionId: string): Promise<void>;
  /** one line for the person running opencode (stderr) */
  tell(line: string): void;
  /** a warning for opencode's log */
  warn(message: string): void;
}

export interface OpencodeTrackerOptions {
  /** the host recorded with the sessions (default `opencode`) */
  host?: string;
  /** opens the guard session for an opencode top-level session id */
  openSession: (sessionId: string, options: GuardSessionOptions) => GuardSession;
  /** whether a person can answer asks (false under `opencode run`) */
  interactive: boolean;
  delivery: OpencodeDelivery;
  /** stop the opencode session when toolgate aborts (true) */
  stopOnAbort?: boolean;
  /** called with each headless reject that stopped the run, for the audit trail */
  onHostStopped?: (stop: HostStopped) => void | Promise<void>;
}

/** `opencode run` rejected an ask and stopped the session (exit 0): what toolgate records and tells the person. */
export interface HostStopped {
  sessionId: string;
  tool: string;
  toolUseId: string;
  pattern: string;
  /** the opencode.json rule that would allow it */
  ruleToAdd: string;
  line: string;
}

interface PendingAsk {
  sessionId: string;
  permission: string;
  patterns: string[];
  always: string[];
  callId?: string;
  metadata: Record<string, unknown>;
}

/**
 * Feeds toolgate's guard from the signals opencode really emits and turns the guard's effects into opencode
 * actions. One tracker per plugin instance (one opencode process); subagent sessions are counted in their root
 * session under their own agent id.
 */
export class OpencodeTracker {
  readonly #options: OpencodeTrackerOptions;
  readonly #sessions = new Map<string, GuardSession>();
  readonly #parents = new Map<string, string>();
  readonly #asks = new Map<string, PendingAsk>();
  readonly #calls = new Map<string, { tool: string; input: unknown }>();
  readonly #counted = new Set<string>();
  readonly #effects: EffectDelivery;
  readonly #stopped = new Set<string>();

  constructor(options: OpencodeTrackerOptions) {
    this.#options = options;
    this.#effects = new EffectDelivery({ delivery: options.delivery, stopOnAbort: options.stopOnAbort ?? true });
  }

  /** the guidance toolgate has for a call (appended to its error text by the messages transform) */
  guidanceFor(callId: string): string | undefined {
    return this.#effects.guidanceFor(callId);
  }

  abortOf(sessionId: string): AbortEffect | undefined {
    return this.#effects.abortOf(this.#root(sessionId));
  }

  async onEvent(event: unknown): Promise<void> {
    const signal = opencodeSignal(event);
    if (signal !== undefined) await this.#onSignal(signal);
  }

  /** a real user message starts a turn; toolgate's own notes do not (the plugin filters them) */
  async onUserMessage(sessionId: string): Promise<void> {
    if (this.#parents.has(sessionId)) return;
    await this.#handle(sessionId, await this.#session(sessionId).turnStarted());
  }

  /** `tool.execute.before`: toolgate's own policy and loop detector. Resolves with the text to throw, if any. */
  async beforeTool(options: {
    sessionId: string;
    callId: string;
    tool: string;
    input: unknown;
  }): Promise<string | undefined> {
    this.#calls.set(this.#key(options.sessionId, options.callId), { tool: options.tool, input: options.input });
    trim(this.#calls);
    const result = await this.#session(options.sessionId).decide(this.#call(options), this.#agent(options.sessionId));
    await this.#handle(options.sessionId, result.effects);
    if (result.decision.behavior === "allow") return undefined;
    const key = this.#key(options.sessionId, options.callId);
    this.#counted.add(key);
    trim(this.#counted);
    return result.text || result.decision.reason;
  }

  /** `tool.execute.after`: the call ran. A failure is classified for OS-level denials by the guard. */
  async afterTool(options: {
    sessionId: string;
    callId: string;
    tool: string;
    input: unknown;
    output: string;
    exitCode?: number;
  }): Promise<void> {
    const session = this.#session(options.sessionId);
    const call = this.#call(options);
    const agent = this.#agent(options.sessionId);
    // opencode throws for failed tools, so this hook sees completed calls; bash reports its exit code. A non-zero
    // exit is a failure; either way the guard classifies the output once for OS-level denials (EACCES counts, an
    // exit-0 refusal too, grep's exit 1 does not).
    const failed = options.exitCode !== undefined && options.exitCode !== 0;
    const effects = failed
      ? await session.failed(call, {
          ...agent,
          error: options.output,
          exitCode: options.exitCode,
          stdout: options.output,
        })
      : await session.succeeded(call, {
          ...agent,
          output: options.output,
          ...(options.exitCode === undefined ? {} : { exitCode: options.exitCode }),
        });
    await this.#handle(options.sessionId, effects);
  }

  async #onSignal(signal: OpencodeSignal): Promise<void> {
    switch (signal.kind) {
      case "session-created":
        if (signal.parentSessionId !== undefined) {
          this.#parents.set(signal.sessionId, signal.parentSessionId);
          await this.#handle(signal.sessionId, await this.#session(signal.sessionId).subagentStarted(signal.sessionId));
        }
        return;
      case "permission-asked":
        this.#asks.set(signal.requestId, {
          sessionId: signal.sessionId,
          permission: signal.permission,
          patterns: signal.patterns,
          always: signal.always,
          metadata: signal.metadata,
          ...(signal.callId === undefined ? {} : { callId: signal.callId }),
        });
        return;
      case "permission-replied":
        await this.#onReply(signal);
        return;
      case "tool-error":
        await this.#onToolError(signal);
        return;
      case "session-idle":
        if (this.#parents.has(signal.sessionId)) {
          const effects = await this.#session(signal.sessionId).subagentStopped(signal.sessionId);
          await this.#handle(signal.sessionId, effects);
        } else if (this.#sessions.has(signal.sessionId)) {
          await this.#handle(
            signal.sessionId,
            await this.#session(signal.sessionId).turnEnded({ outcome: "completed" }),
          );
        }
        return;
      case "session-error":
        return;
    }
  }

  async #onReply(signal: Extract<OpencodeSignal, { kind: "permission-replied" }>): Promise<void> {
    const ask = this.#asks.get(signal.requestId);
    this.#asks.delete(signal.requestId);
    if (signal.reply !== "reject") return; // once / always are approvals, never denials
    const sessionId = ask?.sessionId ?? signal.sessionId;
    const callId = ask?.callId ?? signal.requestId;
    const key = this.#key(sessionId, callId);
    if (this.#counted.has(key)) return;
    this.#counted.add(key);
    trim(this.#counted);
    const known = this.#calls.get(key);
    const tool = known?.tool ?? ask?.permission ?? "unknown";
    const input = known?.input ?? ask?.metadata ?? {};
    const pattern = ask?.patterns[0] ?? "*";
    const source: DenialSource = this.#options.interactive ? "user" : "headless";
    const reason = this.#options.interactive
      ? `The person rejected the ${ask?.permission ?? tool} permission for ${JSON.stringify(pattern)}.`
      : `opencode run auto-rejected the ${ask?.permission ?? tool} permission for ${JSON.stringify(pattern)} (nobody can answer asks headless).`;
    const call = this.#call({ sessionId, callId, tool, input });
    const effects = await this.#session(sessionId).denied(call, {
      ...this.#agent(sessionId),
      source,
      reason,
      rule: `${ask?.permission ?? tool} ${JSON.stringify(ask?.always[0] ?? pattern)}: ask`,
    });
    await this.#handle(sessionId, effects);
    if (!this.#options.interactive) await this.#hostStopped({ sessionId, tool, callId, ask, pattern });
  }

  async #hostStopped(options: {
    sessionId: string;
    tool: string;
    callId: string;
    ask: PendingAsk | undefined;
    pattern: string;
  }): Promise<void> {
    const root = this.#root(options.sessionId);
    if (this.#stopped.has(root)) return; // one line per run: a reject rejects the session's other asks too
    this.#stopped.add(root);
    const rulePattern = options.ask?.always[0] ?? options.pattern;
    const { line, ruleToAdd } = describeHostStop({
      tool: options.tool,
      subject: options.pattern,
      permission: options.ask?.permission ?? options.tool,
      rulePattern,
    });
    this.#options.delivery.tell(line);
    await this.#options.onHostStopped?.({
      sessionId: this.#root(options.sessionId),
      tool: options.tool,
      toolUseId: options.callId,
      pattern: rulePattern,
      ruleToAdd,
      line,
    });
  }

  async #onToolError(signal: Extract<OpencodeSignal, { kind: "tool-error" }>): Promise<void> {
    const key = this.#key(signal.sessionId, signal.callId);
    if (this.#counted.has(key)) return; // a reject already counted at permission.replied, or toolgate's own block
    const denial = recognizeOpencodeDenial(signal.error, { tool: signal.tool, input: signal.input });
    const call = this.#call({
      sessionId: signal.sessionId,
      callId: signal.callId,
      tool: signal.tool,
      input: signal.input,
    });
    const session = this.#session(signal.sessionId);
    const agent = this.#agent(signal.sessionId);
    if (denial === undefined) {
      await this.#handle(signal.sessionId, await session.failed(call, { ...agent, error: signal.error }));
      return;
    }
    this.#counted.add(key);
    trim(this.#counted);
    const source: DenialSource =
      denial.kind === "rule"
        ? "rule"
        : denial.kind === "unavailable"
          ? "validation"
          : this.#options.interactive
            ? "user"
            : "headless";
    const effects = await session.denied(call, {
      ...agent,
      source,
      reason: signal.error,
      ...(denial.rule === undefined ? {} : { rule: denial.rule }),
    });
    await this.#handle(signal.sessionId, effects);
  }

  async #handle(sessionId: string, effects: readonly Effect[]): Promise<void> {
    await this.#effects.deliver(this.#root(sessionId), effects);
  }

  #root(sessionId: string): string {
    let current = sessionId;
    for (let depth = 0; depth < 16; depth += 1) {
      const parent = this.#parents.get(current);
      if (parent === undefined) return current;
      current = parent;
    }
    return current;
  }

  #agent(sessionId: string): { agentId?: string } {
    return this.#parents.has(sessionId) ? { agentId: sessionId } : {};
  }

  #session(sessionId: string): GuardSession {
    const root = this.#root(sessionId);
    let session = this.#sessions.get(root);
    if (session === undefined) {
      session = this.#options.openSession(root, {
        interactive: this.#options.interactive,
        host: this.#options.host ?? "opencode",
      });
      this.#sessions.set(root, session);
    }
    return session;
  }

  #key(sessionId: string, callId: string): string {
    return `${this.#root(sessionId)}\u0000${callId}`;
  }

  #call(options: { callId: string; tool: string; input: unknown; sessionId: string }): ToolCall {
    return { toolUseId: options.callId, tool: options.tool, input: options.input ?? {} };
  }
}

/** Keeps per-call bookkeeping bounded in long TUI sessions (oldest entries go first). */
const KEPT_CALLS = 2048;
function trim(collection: Map<string, unknown> | Set<string>): void {
  while (collection.size > KEPT_CALLS) collection.delete(collection.keys().next().value as string);
}
