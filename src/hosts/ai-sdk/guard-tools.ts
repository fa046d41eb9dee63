import type { ModelMessage, StopCondition, Tool, ToolApprovalResponse, ToolExecutionOptions, ToolSet } from "ai";
import type { ToolCall } from "../../core/events.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { guardedExecute } from "./guarded-execute.js";
import { createToolGate, type GrantOffer, joinText, type ToolGateOptions } from "./tool-gate.js";
import type { ToolgateAbortError } from "./toolgate-abort-error.js";

export type GuardToolsOptions = ToolGateOptions;

/** The approval request as `generateText`/`streamText` put it in `result.content` (`tool-approval-request`). */
export interface ApprovalRequestPart {
  approvalId: string;
  toolCall: { toolCallId: string; toolName: string; input: unknown };
}

export interface ApprovalAnswerOptions {
  approved: boolean;
  /** the person's words; toolgate's guidance follows them in the text the model gets for a decline */
  reason?: string;
  /** the answer to `grantOffer(request)`: `true` grants its scope for the rest of the session */
  grant?: boolean;
}

export interface GuardedTools<TOOLS extends ToolSet> {
  /** the same tools, each call decided by toolgate before `execute` */
  tools: TOOLS;
  /** for `stopWhen`: true once toolgate stopped the run (`stopWhen: [stepCountIs(20), guarded.stopWhen]`) */
  stopWhen: StopCondition<TOOLS>;
  /** aborted with the `ToolgateAbortError` when toolgate stops the run: `generateText` then rejects with it */
  abortSignal: AbortSignal;
  /** the run's `ToolgateAbortError`, once toolgate stopped it */
  abortError(): ToolgateAbortError | undefined;
  /** throws the `ToolgateAbortError` when toolgate stopped the run */
  throwIfAborted(): void;
  /** the session grant toolgate offers with this approval request (after repeated declines of its pattern) */
  grantOffer(request: ApprovalRequestPart): GrantOffer | undefined;
  /**
   * The `tool-approval-response` for the app's approval UI's answer: a decline is counted and its `reason` carries
   * toolgate's guidance; `grant: true` accepts the offered session grant (no more asks for that scope).
   */
  answerApproval(request: ApprovalRequestPart, answer: ApprovalAnswerOptions): Promise<ToolApprovalResponse>;
  /** counts approval answers in a history that did not go through `answerApproval` (a `useChat` client's) */
  countApprovals(messages: readonly ModelMessage[]): Promise<void>;
}

/**
 * Wraps an AI SDK `ToolSet` so every call goes through the guard session first: toolgate's policy and loop
 * detector, then the app's decider and its own `needsApproval`. A `deny` never runs (the model reads the refusal
 * with toolgate's guidance as the tool's error); an `ask` becomes the SDK's own approval request; a declined
 * approval, a decider's deny and an execute error that is an OS or permission denial all count. At the threshold
 * an interactive session offers the minimum-scope grant with the next approval request of that pattern; a
 * headless one falls back, skips, or stops the run (`stopWhen`, `abortSignal`, `ToolgateAbortError`).
 * Tools without `execute` (client-side or provider tools) pass through unchanged.
 */
export function guardTools<TOOLS extends ToolSet>(tools: TOOLS, options: GuardToolsOptions): GuardedTools<TOOLS> {
  const gate = createToolGate(options);
  const wrapped: Record<string, Tool> = {};
  for (const [toolName, original] of Object.entries(tools) as [string, Tool][]) {
    if (typeof original.execute !== "function") {
      wrapped[toolName] = original;
      continue;
    }
    const innerApproval = original.needsApproval;
    const inner = (input: unknown, approvalOptions: { toolCallId: string; messages: unknown[] }) =>
      typeof innerApproval === "function"
        ? innerApproval(input as never, approvalOptions as { toolCallId: string; messages: ModelMessage[] })
        : innerApproval === true;
    wrapped[toolName] = {
      ...original,
      needsApproval: (input: unknown, approvalOptions: { toolCallId: string; messages: ModelMessage[] }) =>
        gate.needsApproval({ toolName, input, ...approvalOptions }, () => inner(input, approvalOptions)),
      execute: guardedExecute({ gate, toolName, execute: original.execute, needsApproval: inner }),
    } as Tool;
  }

  function callOf(request: ApprovalRequestPart): ToolCall {
    return gate.callOf(request.toolCall);
  }

  return {
    tools: wrapped as TOOLS,
    stopWhen: () => gate.abortError() !== undefined,
    abortSignal: gate.signal,
    abortError: gate.abortError,
    throwIfAborted() {
      const error = gate.abortError();
      if (error !== undefined) throw error;
    },
    grantOffer: (request) => gate.offerFor(callOf(request)),
    async answerApproval(request, answer) {
      const call = callOf(request);
      const response: ToolApprovalResponse = {
        type: "tool-approval-response",
        approvalId: request.approvalId,
        approved: answer.approved,
      };
      try {
        const known = gate.ledger.get(call.toolUseId);
        // toolgate refused this call before anyone was asked: an approval cannot undo that
        if (known?.outcome === "denied") return { ...response, approved: false, reason: known.text ?? "" };
        const offer = gate.offerFor(call);
        if (answer.approved) {
          gate.ledger.set(call.toolUseId, { call, outcome: "asked", reported: true });
          if (offer !== undefined && answer.grant === true) gate.take(await gate.answerOffer(offer, true));
          return answer.reason === undefined ? response : { ...response, reason: answer.reason };
        }
        const denied = await gate.reportDenial(call, {
          source: "user",
          reason: answer.reason ?? `The user declined this ${call.tool} call.`,
        });
        const declined =
          offer !== undefined && answer.grant === false ? gate.take(await gate.answerOffer(offer, false)) : "";
        gate.deny(call, joinText(denied.text, declined));
        return { ...response, reason: joinText(denied.text, declined) };
      } catch (error) {
        gate.onError(error, "answerApproval");
        // fail closed: a decline stays a decline; an approval toolgate could not record is refused
        return { ...response, approved: false, reason: failClosedText(error, "answerApproval") };
      }
    },
    countApprovals: (messages) => gate.catchUp(messages),
  };
}

export type { ToolExecutionOptions };
