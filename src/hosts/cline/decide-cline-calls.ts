import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import type { GuardSession } from "../../guard/types.js";
import type { StopControl } from "./cline-stop.js";
import type { ClineBeforeToolResult } from "./create-cline-plugin.js";

/**
 * `beforeTool`'s answer for one Cline call, from toolgate's calls for it (one per file or URL it acts on, see
 * `readClineCall`), decided one after another: the first refusal refuses the Cline call (`skip`, with its text) and
 * the rest are not asked; a rule's ask on any makes Cline ask the person (`policy: { autoApprove: false }`); nudges
 * go in `appendContext`; a waiting abort adds `stop: true`. `allowed`: Cline may run the call.
 */
export async function decideClineCalls(options: {
  session: GuardSession;
  calls: readonly [ToolCall, ...ToolCall[]];
  /** whether a person can answer a rule's ask */
  interactive: boolean;
  stop: StopControl;
  /** waits for the records under way */
  drain: () => Promise<void>;
}): Promise<{ answer: ClineBeforeToolResult | undefined; allowed: boolean }> {
  const { session, stop } = options;
  const contexts: string[] = [];
  let ask = false;
  for (const call of options.calls) {
    // Cline asks (or refuses headless) itself: an ask of toolgate's defaults stays Cline's own (it auto-approves
    // unless told otherwise); an ask a rule made is a headless denial here when nobody can answer it
    const result = await session.decide(call, { hostAsks: true, cannotAsk: !options.interactive });
    stop.note(result.effects);
    const nudge = nudges(result.effects);
    if (nudge !== undefined) contexts.push(nudge);
    if (result.decision.behavior !== "allow" && result.decision.behavior !== "ask") {
      // the record reaches the store before Cline goes on: Cline may end the plugin's process as soon as its run
      // ends, and `toolgate run` reads the store then
      await options.drain();
      const reason = result.text || result.decision.reason;
      // `stop` keeps the refusal's text as its reason
      const halt = stop.answer() === undefined ? {} : { stop: true };
      return { answer: { skip: true, reason, ...halt, ...appendContext(contexts) }, allowed: false };
    }
    // a rule's ask: Cline must ask the person for this call, whatever its auto-approve says
    if (result.decision.behavior === "ask" && result.decision.source !== "default") ask = true;
  }
  const answer: ClineBeforeToolResult = {
    ...(ask ? { policy: { autoApprove: false } } : {}),
    ...appendContext(contexts),
    ...stop.answer(),
  };
  return { answer: Object.keys(answer).length === 0 ? undefined : answer, allowed: true };
}

function nudges(effects: readonly Effect[]): string | undefined {
  const texts = effects.flatMap((effect) => (effect.type === "nudge" ? [effect.text] : []));
  return texts.length === 0 ? undefined : texts.join("\n");
}

function appendContext(contexts: readonly string[]): { appendContext?: string } {
  return contexts.length === 0 ? {} : { appendContext: contexts.join("\n") };
}
