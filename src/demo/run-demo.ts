import type { Effect } from "../core/effects.js";
import { createGuard } from "../guard/create-guard.js";
import { abortOf, textForModel } from "../guard/text-for-model.js";
import { hostAllows, stubbornCall } from "./stubborn-agent.js";

/** `toolgate run`'s exit code when toolgate aborted the run (docs/cli.md); the demo reports it, and exits 0 itself. */
export const ABORTED_EXIT = 6;

export interface DemoStep {
  turn: number;
  command: string;
  withoutToolgate: string;
  withToolgate: string[];
}

export interface DemoResult {
  turnCap: number;
  callsWithout: number;
  deniedWithout: number;
  exitWithout: number;
  callsWith: number;
  deniedWith: number;
  exitWith: number;
  abortError: string | undefined;
  steps: DemoStep[];
}

/**
 * One turn's effects in the order a reader follows them: what the model is told (guidance, nudge, and the text
 * itself), then what toolgate decided (loop level, escalation), and the abort last, because nothing happens
 * after it: the host stops the run there.
 */
function describeEffects(effects: readonly Effect[]): string[] {
  const told: string[] = [];
  const decided: string[] = [];
  let abort: string | undefined;
  for (const effect of effects) {
    if (effect.type === "guidance") told.push(`guidance (${effect.stage})`);
    else if (effect.type === "nudge") told.push("nudge");
    else if (effect.type === "loop") decided.push(`loop ${effect.level}`);
    else if (effect.type === "audit" && effect.event.kind === "escalation.reached") decided.push("escalation reached");
    else if (effect.type === "abort") abort = `ABORT (${effect.reason}): the run stops here, exit ${ABORTED_EXIT}`;
  }
  const lines = told.length > 0 ? [told.join(" + ")] : [];
  const text = textForModel(effects);
  if (text.length > 0) lines.push(`model is told: ${text.split("\n")[0]}`);
  lines.push(...decided);
  if (abort !== undefined) lines.push(abort);
  return lines;
}

/**
 * Runs the stubborn persona twice against the same simulated headless host: once as hosts do today (every
 * denied call goes back to the model until the turn cap, and the run "succeeds"), once through a toolgate guard
 * that counts the denials, tells the model, escalates and aborts with a clear error and a non-zero exit.
 */
export async function runDemo(options: { turnCap?: number } = {}): Promise<DemoResult> {
  const turnCap = options.turnCap ?? 30;
  const steps: DemoStep[] = [];
  let deniedWithout = 0;
  for (let turn = 0; turn < turnCap; turn++) {
    const call = stubbornCall(turn);
    const command = (call.input as { command: string }).command;
    const allowed = hostAllows(command);
    if (!allowed) deniedWithout += 1;
    steps.push({ turn: turn + 1, command, withoutToolgate: allowed ? "ran" : "denied", withToolgate: [] });
  }

  const guard = createGuard({
    clock: (() => {
      let now = Date.UTC(2026, 10, 22);
      return () => (now += 2000);
    })(),
  });
  const session = guard.session("demo", { interactive: false, host: "demo" });
  await session.turnStarted();
  let callsWith = 0;
  let deniedWith = 0;
  let abortError: string | undefined;
  for (let turn = 0; turn < turnCap && abortError === undefined; turn++) {
    const call = stubbornCall(turn);
    const command = (call.input as { command: string }).command;
    callsWith += 1;
    const decided = await session.decide(call);
    let effects = decided.effects;
    if (decided.decision.behavior !== "deny") {
      if (hostAllows(command)) effects = [...effects, ...(await session.succeeded(call))];
      else {
        deniedWith += 1;
        effects = [
          ...effects,
          ...(await session.denied(call, { source: "headless", reason: "This command requires approval" })),
        ];
      }
    } else deniedWith += 1;
    const step = steps[turn] as DemoStep;
    step.withToolgate = describeEffects(effects);
    abortError = abortOf(effects)?.error;
  }
  await session.end();
  return {
    turnCap,
    callsWithout: turnCap,
    deniedWithout,
    exitWithout: 0,
    callsWith,
    deniedWith,
    exitWith: abortError === undefined ? 0 : ABORTED_EXIT,
    abortError,
    steps,
  };
}
