import type { Effect, OfferGrantEffect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import { commandPattern } from "../../policy/command-pattern.js";
import { answerWithin, DEFAULT_DECIDER_TIMEOUT_MS } from "./answer-within.js";
import { approvalAnswers, approvalRequested } from "./approval-messages.js";
import { CallLedger, type LedgerEntry } from "./call-ledger.js";
import { type Decider, type DeciderDecision, readDeciderDecision } from "./decider.js";
import { ToolgateAbortError } from "./toolgate-abort-error.js";

/** setTimeout's longest delay */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** How a denial the guard did not decide is recorded: a person, the decider, nobody to ask, the decider failing. */
type DeniedSource = "user" | "rule" | "headless" | "internal";

/** What `grantOffer` shows: the minimum scope toolgate would grant for the rest of the session. */
export type GrantOffer = Omit<OfferGrantEffect, "type">;

export interface ToolGateOptions {
  session: GuardSession;
  /** the AI SDK tool name -> the name toolgate's rules and tool families use (`{ runCommand: "Bash" }`) */
  toolNames?: Record<string, string>;
  /**
   * an outside decider (an OPA policy, say): toolgate counts and escalates on its decisions. An error, an unknown
   * verdict or no answer within `deciderTimeoutMs` refuses the call (fail closed)
   */
  decider?: Decider;
  /** how long a call waits for the decider, and for a tool's own `needsApproval` (default 5000 ms) */
  deciderTimeoutMs?: number;
  /** called once when toolgate stops the run (headless escalation) */
  onAbort?: (error: ToolgateAbortError) => void;
  /** internal errors (toolgate fails closed on them); default: one line on stderr, redacted */
  onError?: (error: unknown, where: string) => void;
}

export interface CallContext {
  toolName: string;
  input: unknown;
  toolCallId: string;
  messages: readonly unknown[];
}

/** Joins the non-empty texts, each once. */
export function joinText(...parts: (string | undefined)[]): string {
  return [...new Set(parts.filter((part): part is string => part !== undefined && part !== ""))].join("\n");
}

/**
 * The decisions behind a guarded ToolSet, per tool call: toolgate's policy and loop detector (one `decide`), the
 * app's decider and its own `needsApproval`, the approval answers and the escalation effects. Translation only:
 * every count, threshold, offer and abort comes from the guard session.
 */
export function createToolGate(options: ToolGateOptions): ToolGate {
  const { session } = options;
  const ledger = new CallLedger();
  const offers = new Map<string, GrantOffer>();
  const controller = new AbortController();
  let abortError: ToolgateAbortError | undefined;
  let interactive: boolean | undefined;
  const timeoutMs = options.deciderTimeoutMs ?? DEFAULT_DECIDER_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMEOUT_MS) {
    throw new RangeError(
      `deciderTimeoutMs must be a number of milliseconds above 0 and at most ${MAX_TIMEOUT_MS} (got ${String(timeoutMs)}).`,
    );
  }
  const onError =
    options.onError ??
    ((error: unknown, where: string) => {
      process.stderr.write(`toolgate: ${where}: ${errorText(error)}\n`);
    });

  const callOf = (context: { toolName: string; input: unknown; toolCallId: string }): ToolCall => ({
    toolUseId: context.toolCallId,
    tool: options.toolNames?.[context.toolName] ?? context.toolName,
    input: context.input,
  });

  /** Offers and aborts among a step's effects; the text the model gets for this call. */
  function take(effects: readonly Effect[]): string {
    for (const effect of effects) {
      if (effect.type === "offer-grant") {
        const { type: _type, ...offer } = effect;
        offers.set(offer.offerId, offer);
      }
    }
    const abort = ToolgateAbortError.fromEffects(effects);
    if (abort !== undefined && abortError === undefined) {
      abortError = abort;
      controller.abort(abort);
      options.onAbort?.(abort);
    }
    return joinText(textForModel(effects), nudgeOf(effects)?.text);
  }

  async function isInteractive(): Promise<boolean> {
    interactive ??= (await session.state()).interactive;
    return interactive;
  }

  function deny(call: ToolCall, text: string): LedgerEntry {
    return ledger.set(call.toolUseId, { call, outcome: "denied", text, reported: true });
  }

  /** A denial the guard did not decide (a person, the decider, nobody to ask): count it, escalate, explain. */
  async function reportDenial(call: ToolCall, denial: { source: DeniedSource; reason: string }) {
    const effects = await session.denied(call, denial);
    return { effects, text: joinText(denial.reason, take(effects)) };
  }

  /** Approval answers in the history that toolgate has not counted yet (answered outside `answerApproval`). */
  async function catchUp(messages: readonly unknown[]): Promise<void> {
    const answers = approvalAnswers(messages).filter((answer) => ledger.get(answer.toolCallId)?.reported !== true);
    if (answers.length === 0) return;
    const recorded = await session.recordedCallIds();
    for (const answer of answers) {
      const call = callOf(answer);
      if (answer.approved || recorded.has(answer.toolCallId)) {
        ledger.set(answer.toolCallId, { call, outcome: answer.approved ? "asked" : "denied", reported: true });
        continue;
      }
      const denied = await reportDenial(call, {
        source: "user",
        reason: answer.reason ?? `${call.tool} was declined.`,
      });
      deny(call, denied.text);
    }
  }

  /**
   * The app's decider about one call, bounded by `deciderTimeoutMs`; its verdict must be one toolgate knows. When
   * it throws, answers something else or nothing in time, the call is refused and recorded (source `internal`) with
   * a sentence saying why: "failed".
   */
  async function askDecider(context: CallContext): Promise<DeciderDecision | undefined | "failed"> {
    const { decider } = options;
    if (decider === undefined) return undefined;
    try {
      const answer = await answerWithin({
        what: "the decider",
        timeoutMs,
        ask: (signal) => decider({ ...context, signal }),
      });
      return readDeciderDecision(answer);
    } catch (error) {
      onError(error, "decider");
      const call = callOf(context);
      const denied = await reportDenial(call, { source: "internal", reason: failClosedText(error, "decider") });
      deny(call, denied.text);
      return "failed";
    }
  }

  /** The SDK's `needsApproval` for one call: `true` asks the app's approval UI; a refusal waits for `execute`. */
  async function needsApproval(context: CallContext, inner: () => boolean | PromiseLike<boolean>): Promise<boolean> {
    const call = callOf(context);
    try {
      await catchUp(context.messages);
      const known = ledger.get(context.toolCallId);
      // the SDK asks again when it re-validates an approved call: keep the answer it got the first time
      if (known !== undefined) return known.outcome === "asked";
      const askedBefore = approvalRequested(context.messages, context.toolCallId);
      const decided = await session.decide(call, { hostAsks: true });
      if (decided.decision.behavior === "deny") {
        deny(call, joinText(decided.text === "" ? decided.decision.reason : "", take(decided.effects)));
        return false;
      }
      // loop steering for a call that may still run: handed to the model with its result
      const steer = take(decided.effects);
      const note = steer === "" ? {} : { text: steer };
      const outside = await askDecider(context);
      if (outside === "failed") return false;
      if (outside?.decision === "deny") {
        const denied = await reportDenial(call, {
          source: "rule",
          reason: outside.reason ?? `${call.tool} was denied by the app's policy.`,
        });
        deny(call, denied.text);
        return false;
      }
      const granted = decided.decision.behavior === "allow" && decided.decision.source === "grant";
      const asks =
        !granted &&
        ((decided.decision.behavior === "ask" && decided.decision.source !== "default") ||
          outside?.decision === "requires-approval" ||
          (outside?.decision !== "allow" &&
            (await answerWithin({ what: "the tool's needsApproval", timeoutMs, ask: () => inner() }))));
      if (!asks && !askedBefore) {
        ledger.set(context.toolCallId, { call, outcome: "allowed", ...note });
        return false;
      }
      if (askedBefore || (await isInteractive())) {
        ledger.set(context.toolCallId, { call, outcome: "asked", ...note });
        return true;
      }
      const reason = decided.decision.behavior === "ask" ? decided.decision.reason : `${call.tool} needs approval.`;
      const denied = await reportDenial(call, {
        source: "headless",
        reason: `${reason} Nobody can approve it in this run, so it is denied.`,
      });
      deny(call, denied.text);
      return false;
    } catch (error) {
      // fail closed: an internal error never becomes an allow
      onError(error, "needsApproval");
      deny(call, failClosedText(error, "needsApproval"));
      return false;
    }
  }

  return {
    session,
    ledger,
    callOf,
    take,
    catchUp,
    needsApproval,
    onError,
    signal: controller.signal,
    abortError: () => abortError,
    /** the pending grant offer for a call of this tool and pattern, if toolgate made one */
    offerFor(call: ToolCall): GrantOffer | undefined {
      const pattern = commandPattern(call.tool, call.input);
      return [...offers.values()].find((offer) => offer.tool === call.tool && offer.pattern === pattern);
    },
    async answerOffer(offer: GrantOffer, accepted: boolean): Promise<Effect[]> {
      offers.delete(offer.offerId);
      return session.answerGrant(offer.offerId, accepted);
    },
    reportDenial,
    deny,
  };
}

export interface ToolGate {
  session: GuardSession;
  ledger: CallLedger;
  callOf(context: { toolName: string; input: unknown; toolCallId: string }): ToolCall;
  /** records offers and the abort among a step's effects; returns the text the model gets for the call */
  take(effects: readonly Effect[]): string;
  catchUp(messages: readonly unknown[]): Promise<void>;
  needsApproval(context: CallContext, inner: () => boolean | PromiseLike<boolean>): Promise<boolean>;
  onError(error: unknown, where: string): void;
  signal: AbortSignal;
  abortError(): ToolgateAbortError | undefined;
  offerFor(call: ToolCall): GrantOffer | undefined;
  answerOffer(offer: GrantOffer, accepted: boolean): Promise<Effect[]>;
  reportDenial(
    call: ToolCall,
    denial: { source: DeniedSource; reason: string },
  ): Promise<{ effects: Effect[]; text: string }>;
  deny(call: ToolCall, text: string): LedgerEntry;
}
