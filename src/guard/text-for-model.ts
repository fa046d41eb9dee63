import type { Effect } from "../core/effects.js";

/**
 * The text a host should hand the model for one call: guidance, fallback/skip/abort texts, a block's reason and
 * loop steering, in effect order, each once. Nudges are separate (they go out as their own message).
 */
export function textForModel(effects: readonly Effect[]): string {
  const parts: string[] = [];
  for (const effect of effects) {
    let text: string | undefined;
    switch (effect.type) {
      case "guidance":
      case "fallback":
      case "skip":
      case "block":
      case "abort":
        text = effect.text;
        break;
      case "loop":
        text = effect.text;
        break;
      default:
        text = undefined;
    }
    if (text !== undefined && text.length > 0 && !parts.includes(text)) parts.push(text);
  }
  return parts.join("\n");
}

/** The first abort among effects, if any: hosts stop the run and show `error` to the user. */
export function abortOf(effects: readonly Effect[]): Extract<Effect, { type: "abort" }> | undefined {
  return effects.find((effect): effect is Extract<Effect, { type: "abort" }> => effect.type === "abort");
}

/** The nudge among effects, if any. */
export function nudgeOf(effects: readonly Effect[]): Extract<Effect, { type: "nudge" }> | undefined {
  return effects.find((effect): effect is Extract<Effect, { type: "nudge" }> => effect.type === "nudge");
}
