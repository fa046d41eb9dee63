import type { AbortEffect, Effect } from "../../core/effects.js";

/**
 * Thrown (or handed to `abortSignal`) when toolgate stopped an AI SDK run: a model kept calling a denied tool in a
 * headless session until the pattern's threshold. `message` names the tool, the count, the denied call and the
 * rule that would allow it; `rule` is the deny rule that matched, when one did.
 */
export class ToolgateAbortError extends Error {
  readonly code = "TOOLGATE_ABORTED";
  readonly tool: string;
  readonly count: number;
  readonly rule: string | undefined;
  /** `denials` (a pattern reached its threshold), `loop` (the loop detector stopped it) or `tree-budget` */
  readonly reason: AbortEffect["reason"];
  /** the text the model was given with the last refusal */
  readonly textForModel: string;

  constructor(abort: AbortEffect, options: { rule?: string } = {}) {
    super(abort.error);
    this.name = "ToolgateAbortError";
    this.tool = abort.tool;
    this.count = abort.count;
    this.rule = options.rule;
    this.reason = abort.reason;
    this.textForModel = abort.text;
  }

  /** The abort among a step's effects, as an error, with the deny rule from the same step's record. */
  static fromEffects(effects: readonly Effect[]): ToolgateAbortError | undefined {
    const abort = effects.find((effect): effect is AbortEffect => effect.type === "abort");
    if (abort === undefined) return undefined;
    const rule = effects.find((effect) => effect.type === "record" && effect.record.rule !== undefined);
    return new ToolgateAbortError(abort, rule?.type === "record" && rule.record.rule ? { rule: rule.record.rule } : {});
  }
}

/**
 * What a guarded tool's `execute` throws instead of running a call toolgate (or the app's decider, or a person)
 * refused. The AI SDK turns it into a `tool-error` part; the model reads `message`: the refusal with toolgate's
 * guidance.
 */
export class ToolgateDeniedError extends Error {
  readonly code = "TOOLGATE_DENIED";
  readonly tool: string;

  constructor(options: { tool: string; message: string; cause?: unknown }) {
    super(options.message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ToolgateDeniedError";
    this.tool = options.tool;
  }
}
