import type {
  RequestPermissionOutcome,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk";
import type { Effect, OfferGrantEffect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import {
  allowOnceOutcome,
  answerAllows,
  grantOption,
  grantOptionOffer,
  rejectOutcome,
} from "./acp-permission-options.js";
import { type AcpToolCallSeen, permissionToolCall, seenToolCall } from "./acp-tool-call.js";

/** How many tool calls a session remembers (their tool and input, from `session/update`); the oldest go first. */
const REMEMBERED_CALLS = 256;
/** How many guidance texts wait for the next `session/prompt` at most; the oldest go first. */
const WAITING_TEXTS = 16;

export interface AcpSessionGateOptions {
  session: GuardSession;
  /** no person answers here (a CI editor, `--headless`, `toolgate run`): asks of toolgate's rules are refused */
  headless: boolean;
  /** told once when toolgate stops the session (headless escalation): the proxy cancels it and ends the run */
  onAbort?: (error: string) => void;
}

/**
 * toolgate in one ACP session: every `session/request_permission` of the agent goes through `permission` (the policy
 * first, then the person), every `session/update` through `update` (what the agent announced of its tool calls, and
 * how the ones it ran ended), and the guidance for the model waits for the next `session/prompt` (`takeGuidance`):
 * an answer to a permission request cannot carry text, a text block in the person's next prompt can.
 *
 * Translates only: the guard decides (one step per gating request), the person answers, and this class turns both
 * into the ACP answer. An internal error refuses the call (fail closed).
 */
export class AcpSessionGate {
  readonly #options: AcpSessionGateOptions;
  readonly #seen = new Map<string, AcpToolCallSeen>();
  /** calls that were allowed to run, by tool call id: their end is reported to the guard */
  readonly #running = new Map<string, ToolCall>();
  #guidance: string[] = [];
  #abortError: string | undefined;

  constructor(options: AcpSessionGateOptions) {
    this.#options = options;
  }

  /** the abort's error once toolgate stopped this session */
  get aborted(): string | undefined {
    return this.#abortError;
  }

  /** The guidance for the model since the last prompt, joined, and forgotten; empty when there is none. */
  takeGuidance(): string {
    const text = this.#guidance.join("\n\n");
    this.#guidance = [];
    return text;
  }

  /** One `session/update` of the agent: tool calls announced, and how the calls toolgate let run ended. */
  async update(update: Record<string, unknown>): Promise<void> {
    const folded = seenToolCall(update, this.#seen.get(String(update["toolCallId"])));
    if (folded === undefined) return;
    this.#remember(folded.toolCallId, folded.seen);
    const status = update["status"];
    const call = this.#running.get(folded.toolCallId);
    if (call === undefined || (status !== "completed" && status !== "failed")) return;
    this.#running.delete(folded.toolCallId);
    try {
      if (status === "completed") {
        this.#after(await this.#options.session.succeeded(call, { output: outputText(update) }));
      } else {
        const text = outputText(update);
        this.#after(await this.#options.session.failed(call, { error: text, stderr: text }));
      }
    } catch {
      // the outcome of a call that already ran: nothing left to refuse
    }
  }

  /** One `session/request_permission`: the answer for the agent. */
  async permission(
    request: RequestPermissionRequest,
    ask: (request: RequestPermissionRequest) => Promise<RequestPermissionOutcome>,
  ): Promise<RequestPermissionResponse> {
    const { session } = this.#options;
    const offered = request.options;
    const refuse = (text: string): RequestPermissionResponse => {
      this.#say(text);
      return { outcome: rejectOutcome(offered) };
    };
    if (this.#abortError !== undefined) return refuse(this.#abortError);
    const { call, unreadable } = permissionToolCall(request.toolCall, this.#seen.get(request.toolCall.toolCallId));
    if (unreadable !== undefined) {
      return refuse(`toolgate could not read the ${call.tool} call (${unreadable}) and refused it unchecked.`);
    }
    let decided: Awaited<ReturnType<GuardSession["decide"]>>;
    try {
      decided = await session.decide(call, { hostAsks: true, cannotAsk: this.#options.headless });
    } catch (error) {
      return refuse(failClosedText(error, "acp-proxy"));
    }
    const { decision } = decided;
    if (decision.behavior === "deny") {
      this.#after(decided.effects);
      return { outcome: rejectOutcome(offered) };
    }
    if (decision.behavior === "allow" && decision.source === "grant") {
      // the person's own session grant covers the call: toolgate answers for them
      const allow = allowOnceOutcome(offered);
      if (allow !== undefined) {
        this.#started(call);
        return { outcome: allow };
      }
    }
    return this.#askPerson(call, request, ask);
  }

  /** The person answers in their editor; a refusal is counted, and at the threshold they are offered the grant. */
  async #askPerson(
    call: ToolCall,
    request: RequestPermissionRequest,
    ask: (request: RequestPermissionRequest) => Promise<RequestPermissionOutcome>,
  ): Promise<RequestPermissionResponse> {
    const { session } = this.#options;
    const offered = request.options;
    const outcome = await askSafely(ask, request);
    try {
      if (answerAllows(outcome, offered)) {
        // the person's allow is the agent's to act on: toolgate records how the call ends (`update`), and takes no
        // second step for the gating request
        this.#started(call);
        return { outcome };
      }
      const effects = await session.denied(call, {
        source: "user",
        reason:
          outcome.outcome === "cancelled"
            ? `The person cancelled the permission request for ${call.tool}.`
            : `The person rejected ${call.tool}.`,
      });
      const offer = effects.find((effect): effect is OfferGrantEffect => effect.type === "offer-grant");
      if (offer !== undefined) {
        // the threshold: the same call is put to the person once more, in their own editor, with toolgate's
        // minimum-scope grant (its label names the scope) beside the agent's reject
        const reject = offered.filter((option) => option.kind === "reject_once" || option.kind === "reject_always");
        const grant = grantOption(offer);
        const answer = await askSafely(ask, {
          ...request,
          options: [grant, ...reject],
          _meta: { ...request._meta, toolgate: { question: offer.question, offerId: offer.offerId } },
        });
        const accepted = answer.outcome === "selected" && grantOptionOffer(answer.optionId) === offer.offerId;
        const answered = await session.answerGrant(offer.offerId, accepted, { answeredBy: "editor" });
        // the scope is the minimum over the repeated calls, this one included: an accepted grant covers it
        const allow = accepted ? allowOnceOutcome(offered) : undefined;
        if (allow !== undefined) {
          this.#after(answered);
          this.#started(call);
          return { outcome: allow };
        }
        this.#after([...effects.filter((effect) => effect !== offer), ...answered]);
      } else {
        this.#after(effects);
      }
    } catch (error) {
      this.#say(failClosedText(error, "acp-proxy"));
    }
    // whatever the person chose that is not an allow is answered as the agent's own reject: `cancelled` would leave
    // the agent asking again in the same turn
    return { outcome: rejectOutcome(offered) };
  }

  /** A step's effects: guidance and nudges wait for the next prompt, an offer for the next request, an abort stops. */
  #after(effects: readonly Effect[]): void {
    this.#say(textForModel(effects));
    const nudge = nudgeOf(effects);
    if (nudge !== undefined) this.#say(nudge.text);
    const abort = abortOf(effects);
    if (abort !== undefined && this.#abortError === undefined) {
      this.#abortError = abort.error;
      this.#options.onAbort?.(abort.error);
    }
  }

  #say(text: string): void {
    if (text === "" || this.#guidance.includes(text)) return;
    this.#guidance.push(text);
    if (this.#guidance.length > WAITING_TEXTS) this.#guidance.shift();
  }

  /**
   * A call allowed to run, kept until its end is reported; past the cap the oldest is forgotten (an agent that never
   * reports an end, a cancelled turn), so a long session's memory stays bounded.
   */
  #started(call: ToolCall): void {
    this.#running.delete(call.toolUseId);
    this.#running.set(call.toolUseId, call);
    if (this.#running.size > REMEMBERED_CALLS) {
      const oldest = this.#running.keys().next().value;
      if (oldest !== undefined) this.#running.delete(oldest);
    }
  }

  #remember(toolCallId: string, seen: AcpToolCallSeen): void {
    this.#seen.delete(toolCallId);
    this.#seen.set(toolCallId, seen);
    if (this.#seen.size > REMEMBERED_CALLS) {
      const oldest = this.#seen.keys().next().value;
      if (oldest !== undefined) this.#seen.delete(oldest);
    }
  }
}

/** The person's answer; an editor that went away or answered nothing readable refused. */
async function askSafely(
  ask: (request: RequestPermissionRequest) => Promise<RequestPermissionOutcome>,
  request: RequestPermissionRequest,
): Promise<RequestPermissionOutcome> {
  try {
    return await ask(request);
  } catch {
    return { outcome: "cancelled" };
  }
}

/** The text of a tool call update: its `rawOutput` when a string, else its text content blocks. */
function outputText(update: Record<string, unknown>): string {
  if (typeof update["rawOutput"] === "string") return update["rawOutput"];
  const content = Array.isArray(update["content"]) ? update["content"] : [];
  return content
    .map((item) => {
      const inner = (item as { content?: { type?: unknown; text?: unknown } } | null)?.content;
      return inner?.type === "text" && typeof inner.text === "string" ? inner.text : "";
    })
    .filter((text) => text !== "")
    .join("\n");
}
