import type { CanUseTool, PermissionResult } from "@anthropic-ai/claude-agent-sdk";
import type { Effect, OfferGrantEffect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { abortOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import { markDecided, markDenied, wasDecided } from "./decided-calls.js";
import { sessionGrantUpdate } from "./session-grant-update.js";

/** What `onGrantOffer` is shown: the minimum scope toolgate would grant for the rest of the session. */
export type GrantOffer = Omit<OfferGrantEffect, "type">;

export interface GuardCanUseToolOptions {
  /** the host's own `canUseTool` (a prompt, a policy); its denials go through toolgate's escalation */
  inner?: CanUseTool;
  /** interactive escalation: ask a person; `true` grants the scope for this session only */
  onGrantOffer?: (offer: GrantOffer) => Promise<boolean> | boolean;
  /** called once when toolgate aborts the run (headless escalation); the model only sees Claude's canned text */
  onAbort?: (error: string) => void;
}

export interface GuardedCanUseTool extends CanUseTool {
  /** toolgate's abort error, once the run was aborted (also in the log) */
  abortError(): string | undefined;
}

function denyResult(options: { message: string; effects: readonly Effect[] }): PermissionResult {
  return abortOf(options.effects) === undefined
    ? { behavior: "deny", message: options.message }
    : { behavior: "deny", message: options.message, interrupt: true };
}

function joinText(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== "").join("\n");
}

/**
 * Wraps (or replaces) the Agent SDK's `canUseTool`. toolgate's policy and loop detector run first; the inner
 * callback answers what is left; every denial (toolgate's or the inner callback's) goes through the core, and the
 * deny `message` carries toolgate's guidance verbatim. On escalation: interactive sessions call `onGrantOffer` and,
 * on yes, allow with a session rule of the minimum scope; headless sessions deny with fallback/skip text or abort
 * with `interrupt: true`. Without `inner`, an ask is denied (nobody can answer it).
 */
export function guardCanUseTool(session: GuardSession, options: GuardCanUseToolOptions = {}): GuardedCanUseTool {
  let abortError: string | undefined;

  async function escalate(call: ToolCall, effects: Effect[], innerMessage: string): Promise<PermissionResult> {
    const abort = abortOf(effects);
    if (abort !== undefined && abortError === undefined) {
      abortError = abort.error;
      process.stderr.write(`toolgate: ${abort.error}\n`);
      options.onAbort?.(abort.error);
    }
    const offer = effects.find((effect) => effect.type === "offer-grant");
    if (offer !== undefined && options.onGrantOffer !== undefined) {
      const { type: _type, ...details } = offer;
      const accepted = (await options.onGrantOffer(details)) === true;
      const answered = await session.answerGrant(offer.offerId, accepted);
      if (accepted) {
        return {
          behavior: "allow",
          updatedInput: call.input as Record<string, unknown>,
          updatedPermissions: sessionGrantUpdate(offer.scope),
        };
      }
      const all = [...effects, ...answered];
      return denyResult({ message: joinText(innerMessage, textForModel(all)), effects: all });
    }
    return denyResult({ message: joinText(innerMessage, textForModel(effects)), effects });
  }

  const canUseTool = async (
    toolName: string,
    input: Record<string, unknown>,
    callOptions: Parameters<CanUseTool>[2],
  ): Promise<PermissionResult> => {
    const call: ToolCall = { toolUseId: callOptions.toolUseID, tool: toolName, input };
    const agent = callOptions.agentID === undefined ? {} : { agentId: callOptions.agentID };
    try {
      const unanswered = `${toolName} needs approval and nobody can answer here.`;
      if (!wasDecided(session, call.toolUseId)) {
        markDecided(session, call.toolUseId);
        // without an inner callback nobody answers Claude Code's question: toolgate's decision and that headless
        // refusal are one step
        const decided = await session.decide(
          call,
          options.inner === undefined ? { ...agent, unanswered: { reason: unanswered } } : agent,
        );
        if (decided.decision.behavior === "deny") {
          markDenied(session, call.toolUseId);
          return escalate(call, decided.effects, decided.text === "" ? decided.decision.reason : "");
        }
        if (decided.decision.behavior === "allow" && decided.decision.source === "grant") {
          return { behavior: "allow", updatedInput: input };
        }
      }
      const answer: PermissionResult | null =
        options.inner === undefined
          ? { behavior: "deny", message: unanswered }
          : await options.inner(toolName, input, callOptions);
      if (answer === null) return answer as unknown as PermissionResult; // the host answered out of band
      if (answer.behavior === "allow") {
        await session.allowed(call, agent);
        return answer;
      }
      markDenied(session, call.toolUseId);
      const effects = await session.denied(call, {
        source: options.inner === undefined ? "headless" : "user",
        reason: answer.message,
        ...agent,
      });
      const result = await escalate(call, effects, answer.message);
      if (result.behavior === "deny" && answer.interrupt === true) return { ...result, interrupt: true };
      return result;
    } catch (error) {
      // fail closed: an internal error never becomes an allow
      const message = failClosedText(error, "canUseTool");
      process.stderr.write(`toolgate: ${message}\n`);
      return { behavior: "deny", message };
    }
  };
  return Object.assign(canUseTool, { abortError: () => abortError });
}
