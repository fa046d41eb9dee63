import type { Effect } from "../core/effects.js";
import { createGuard } from "../guard/create-guard.js";
import { abortOf, textForModel } from "../guard/text-for-model.js";
import { hostAllows, stubbornCall } from "./stubborn-agent.js";

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

function describeEffects(effects: readonly Effect[]): string[] {
  const lines: string[] = [];
  for (const effect of effects) {
    if (effect.type === "guidance") lines.push(`guidance (${effect.stage})`);
    else if (effect.type === "abort") lines.push(`ABORT (${effect.reason})`);
    else if (effect.type === "nudge") lines.push("nudge");
    else if (effect.type === "audit" && effect.event.kind === "escalation.reached") lines.push("escalation");
    else if (effect.type === "loop") lines.push(`loop ${effect.level}`);
  }
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
    const text = textForModel(effects);
    if (text.length > 0) step.withToolgate.push(`model is told: ${text.split("\n")[0]}`);
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
    exitWith: abortError === undefined ? 0 : 6,
    abortError,
    steps,
  };
}
