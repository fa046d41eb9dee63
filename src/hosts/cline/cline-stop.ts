import type { Effect } from "../../core/effects.js";

/** What a Cline hook answers to end the run (Cline's `applyStopControl`: it throws, and the run ends `aborted`). */
export interface ClineStop {
  stop: true;
  reason: string;
}

/**
 * toolgate's abort, told to Cline as `stop: true`. Cline 3.0.65 applies a hook's `stop` on `beforeRun`,
 * `beforeTool` and `afterTool` (and the model hooks), not on `afterRun`. An abort may first appear in any hook
 * (a denial in `beforeTool`, Cline's own refusal counted in `afterTool`, a turn in `beforeRun`): from then on every
 * hook that can answers `stop` until one has, whether or not the effect appears again. What is tracked is the stop
 * delivered, not the abort seen. Once per run: a new run in the same session (`beforeRun`) is told again at its first
 * abort effect (toolgate refuses every call of an aborted session with one).
 */
export interface StopControl {
  /** notes the abort among a step's effects, if any (nothing once this run was told to stop) */
  note(effects: readonly Effect[]): void;
  /** `{ stop: true, reason }` when an abort waits to be told (it is told now: the person reads it once), else undefined */
  answer(): ClineStop | undefined;
  /** a new run: its stop is not delivered yet */
  newRun(): void;
}

export function createStopControl(tell: (line: string) => void): StopControl {
  let pending: string | undefined;
  let delivered = false;
  return {
    note(effects) {
      if (delivered || pending !== undefined) return;
      const abort = effects.find((effect) => effect.type === "abort");
      if (abort !== undefined) pending = abort.error;
    },
    answer() {
      if (pending === undefined) return undefined;
      const reason = pending;
      pending = undefined;
      delivered = true;
      tell(`toolgate: ${reason}`);
      return { stop: true, reason };
    },
    newRun() {
      delivered = false;
    },
  };
}
