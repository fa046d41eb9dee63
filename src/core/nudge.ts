import { audit } from "./audit-event.js";
import type { NudgeState } from "./state.js";
import type { StepContext } from "./step-context.js";

const HOUR = 60 * 60_000;

/**
 * Sandbox-awareness nudge: after `threshold` denials or OS-permission failures in a row (session-wide), emit one
 * nudge, then stay quiet for the cooldown and within the hourly cap. The streak is reset by a success or a real
 * user message, never by status churn. A nudge never changes a decision.
 */
export function countNudgeEvent(context: StepContext, options: { at: number; osPermission: boolean }): void {
  const { config } = context;
  if (!config.nudge.enabled) return;
  const previous = context.state.nudge;
  const count = previous.count + 1;
  const os = previous.os || options.osPermission;
  // two fixed shapes, not a spread: a spread of states of both shapes is a slow generic copy on every denial
  const nudge: NudgeState =
    previous.lastNudgeAt === undefined
      ? { count, os, recent: previous.recent }
      : { count, os, lastNudgeAt: previous.lastNudgeAt, recent: previous.recent };
  context.state.nudge = nudge;
  if (nudge.count < config.nudge.threshold) return;
  if (nudge.lastNudgeAt !== undefined && options.at - nudge.lastNudgeAt < config.nudge.cooldownMs) return;
  const recent = nudge.recent.filter((time) => options.at - time < HOUR);
  if (recent.length >= config.nudge.hourlyCap) {
    nudge.recent = recent;
    return;
  }
  const reason = nudge.os ? "os-permission" : "denials";
  const text = config.templates[nudge.os ? "nudge.os" : "nudge.denials"]({ count: nudge.count });
  context.effects.push({ type: "nudge", reason, count: nudge.count, text });
  context.effects.push(audit(context, { kind: "nudge.sent", event: options, detail: { reason, count: nudge.count } }));
  context.state.nudge = { count: 0, os: false, lastNudgeAt: options.at, recent: [...recent, options.at] };
}

export function resetNudgeStreak(context: StepContext): void {
  const previous = context.state.nudge;
  if (previous.count === 0 && !previous.os) return;
  context.state.nudge = { ...previous, count: 0, os: false };
}
