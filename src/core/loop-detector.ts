import { abortRun } from "./abort-run.js";
import { audit } from "./audit-event.js";
import type { CallFailedEvent, CallRequestedEvent } from "./events.js";
import { normalizeVolatileText } from "./normalize-volatile.js";
import { callFacts, type StepContext, writableAgent } from "./step-context.js";

const LEVELS = ["observe", "steer", "block", "stop"] as const;
type Level = (typeof LEVELS)[number];

/**
 * Identical-call streaks and A-B-A-B cycles (length up to `maxCycleLength`), kept apart from denial streaks, on an
 * observe -> steer -> block -> stop ladder. Incremental: `runs[k-1]` counts calls in a row equal to the call k
 * positions earlier, so a k-cycle has repeated floor(runs/k) + 1 times. Exempt tools neither enter nor break the
 * window. `stop` cannot be turned off.
 */
export function detectLoop(context: StepContext, event: CallRequestedEvent): void {
  const { config } = context;
  if (config.loop.isExempt(event.call.tool)) return;
  const { signature, summary } = callFacts(context, event.call);
  const agent = writableAgent(context, event.agentId);
  const failing = agent.errorStreak;
  if (
    failing !== undefined &&
    failing.signature === signature &&
    failing.tool === event.call.tool &&
    failing.count >= config.loop.sameErrorSteer
  ) {
    // Goose's rule: the same call failed the same way N times in a row; running it again unchanged is pointless
    context.effects.push({
      type: "block",
      toolUseId: event.call.toolUseId,
      tool: event.call.tool,
      text: config.templates["loop.block"]({
        kind: "same-error",
        repeats: failing.count,
        summary,
        tool: event.call.tool,
      }),
      reason: "loop",
    });
    return;
  }
  const advanced = advanceWindow({
    window: agent.window,
    runs: agent.runs,
    signature,
    maxLength: config.loop.maxCycleLength,
  });
  agent.window = advanced.window;
  agent.runs = advanced.runs;
  const { bestLength, bestRepeats } = advanced;
  if (bestLength === 0) {
    if (agent.loopLevels["call"] !== undefined) delete agent.loopLevels["call"];
    return;
  }
  const level = levelFor(context, bestRepeats);
  if (level === undefined) return;
  const kind = bestLength === 1 ? "identical-call" : "cycle";
  const variables = { repeats: bestRepeats, kind, summary, tool: event.call.tool };
  reportOnce({ context, event, level, slot: "call", detail: { kind, repeats: bestRepeats, cycleLength: bestLength } });
  const { call } = event;
  switch (level) {
    case "observe":
      return;
    case "steer":
      context.effects.push({
        type: "loop",
        level: "steer",
        kind,
        tool: call.tool,
        toolUseId: call.toolUseId,
        repeats: bestRepeats,
        text: config.templates["loop.steer"](variables),
      });
      return;
    case "block":
      context.effects.push({
        type: "block",
        toolUseId: call.toolUseId,
        tool: call.tool,
        text: config.templates["loop.block"](variables),
        reason: "loop",
      });
      return;
    case "stop": {
      context.effects.push({
        type: "block",
        toolUseId: call.toolUseId,
        tool: call.tool,
        text: config.templates["loop.block"](variables),
        reason: "loop",
      });
      const error = config.templates["loop.stop"](variables);
      abortRun(context, { event, reason: "loop", count: bestRepeats, signature, error, text: error });
    }
  }
}

/**
 * Appends a call to the window and updates the runs. Returns new arrays (the inputs are not touched) and the
 * strongest repetition: the cycle length with the most repeats, shorter first on ties (0 when none).
 */
export function advanceWindow(options: {
  window: readonly string[];
  runs: readonly number[];
  signature: string;
  maxLength: number;
}): { window: string[]; runs: number[]; bestLength: number; bestRepeats: number } {
  const { window, signature, maxLength } = options;
  const runs: number[] = new Array(maxLength);
  let bestLength = 0;
  let bestRepeats = 1;
  for (let length = 1; length <= maxLength; length++) {
    const run = window[window.length - length] === signature ? (options.runs[length - 1] ?? 0) + 1 : 0;
    runs[length - 1] = run;
    if (run >= length) {
      const repeats = Math.floor(run / length) + 1;
      if (repeats > bestRepeats) {
        bestRepeats = repeats;
        bestLength = length;
      }
    }
  }
  const next = window.length >= maxLength ? window.slice(window.length - maxLength + 1) : window.slice();
  next.push(signature);
  return { window: next, runs, bestLength, bestRepeats };
}

/** Same tool, same normalised error, `sameErrorSteer` times in a row: steer (Goose's same-error streak). */
export function trackSameError(context: StepContext, event: CallFailedEvent): void {
  const agent = writableAgent(context, event.agentId);
  const error = normalizeVolatileText(event.error).slice(0, 200);
  const previous = agent.errorStreak;
  const count =
    previous !== undefined && previous.tool === event.call.tool && previous.error === error ? previous.count + 1 : 1;
  agent.errorStreak = { tool: event.call.tool, error, count, signature: callFacts(context, event.call).signature };
  const threshold = context.config.loop.sameErrorSteer;
  if (count < threshold) return;
  const variables = { repeats: count, kind: "same-error", tool: event.call.tool };
  if (count === threshold) {
    context.effects.push(
      audit(context, { kind: "loop.detected", event, detail: { kind: "same-error", repeats: count, level: "steer" } }),
    );
  }
  context.effects.push({
    type: "loop",
    level: "steer",
    kind: "same-error",
    tool: event.call.tool,
    toolUseId: event.call.toolUseId,
    repeats: count,
    text: context.config.templates["loop.steer"](variables),
  });
}

function levelFor(context: StepContext, repeats: number): Level | undefined {
  const { loop } = context.config;
  if (repeats >= loop.stop) return "stop";
  if (loop.block !== false && repeats >= loop.block) return "block";
  if (loop.steer !== false && repeats >= loop.steer) return "steer";
  if (loop.observe !== false && repeats >= loop.observe) return "observe";
  return undefined;
}

function reportOnce(options: {
  context: StepContext;
  event: CallRequestedEvent;
  level: Level;
  slot: string;
  detail: Record<string, unknown>;
}): void {
  const { context, event, level, slot } = options;
  const agent = writableAgent(context, event.agentId);
  const rank = LEVELS.indexOf(level) + 1;
  if ((agent.loopLevels[slot] ?? 0) >= rank) return;
  agent.loopLevels[slot] = rank;
  context.effects.push(audit(context, { kind: "loop.detected", event, detail: { ...options.detail, level } }));
}
