import type { AbortEffect, Effect } from "../../core/effects.js";
import type { OpencodeDelivery } from "./opencode-tracker.js";

/**
 * Turns the guard's effects into opencode actions: guidance kept per call for the messages transform, nudges as
 * `noReply` notes, aborts told to the person and the session stopped, warnings to opencode's log. Reactive only.
 */
export class EffectDelivery {
  readonly #delivery: OpencodeDelivery;
  readonly #stopOnAbort: boolean;
  /** text appended to a denied call's error for the model, by call id */
  readonly #guidance = new Map<string, string>();
  readonly #aborts = new Map<string, AbortEffect>();

  constructor(options: { delivery: OpencodeDelivery; stopOnAbort: boolean }) {
    this.#delivery = options.delivery;
    this.#stopOnAbort = options.stopOnAbort;
  }

  guidanceFor(callId: string): string | undefined {
    return this.#guidance.get(callId);
  }

  abortOf(rootSessionId: string): AbortEffect | undefined {
    return this.#aborts.get(rootSessionId);
  }

  async deliver(rootSessionId: string, effects: readonly Effect[]): Promise<void> {
    for (const effect of effects) {
      switch (effect.type) {
        case "guidance":
        case "fallback":
        case "skip":
        case "block":
          this.#addGuidance(effect.toolUseId, effect.text);
          break;
        case "loop":
          if (effect.text !== undefined) this.#addGuidance(effect.toolUseId, effect.text);
          break;
        case "nudge":
          await this.#delivery.note(rootSessionId, effect.text);
          break;
        case "abort":
          // the model reads the abort's text on the call it refused (the first abort and every repeat alike)
          if (effect.toolUseId !== undefined) this.#addGuidance(effect.toolUseId, effect.text);
          await this.#abort(rootSessionId, effect);
          break;
        case "warning":
          this.#delivery.warn(`${effect.code}: ${effect.message}`);
          break;
        case "offer-grant":
          this.#delivery.warn(
            `toolgate would offer a session grant (${effect.scope.rule}); the opencode plugin cannot ask, answer the host's own prompt instead`,
          );
          break;
        default:
          break;
      }
    }
  }

  #addGuidance(callId: string, text: string): void {
    if (text.length === 0) return;
    const previous = this.#guidance.get(callId);
    if (previous?.includes(text)) return;
    this.#guidance.set(callId, previous === undefined ? text : `${previous}\n${text}`);
    if (this.#guidance.size > 512) this.#guidance.delete(this.#guidance.keys().next().value as string);
  }

  async #abort(rootSessionId: string, effect: AbortEffect): Promise<void> {
    if (this.#aborts.has(rootSessionId)) return;
    this.#aborts.set(rootSessionId, effect);
    this.#delivery.tell(`toolgate: ${effect.error}`);
    if (this.#stopOnAbort) await this.#delivery.stop(rootSessionId);
  }
}
