import { compileCoreConfig } from "../../src/core/compile-config.js";
import type { Effect } from "../../src/core/effects.js";
import type { ToolgateEvent } from "../../src/core/events.js";
import { initialState } from "../../src/core/initial-state.js";
import type { SessionState } from "../../src/core/state.js";
import { step } from "../../src/core/step.js";
import { defaultPorts } from "../../src/guard/default-ports.js";

/** Drives the real core for one session and hands each step's effects to `deliver`, like the guard does. */
export function driveCore(options: {
  sessionId: string;
  deliver: (effects: Effect[], session: { sessionId: string; state: SessionState }) => Promise<void>;
  recordBufferSize?: number;
}) {
  const config = compileCoreConfig({
    ports: defaultPorts(),
    options: { recordBufferSize: options.recordBufferSize ?? 100, defaultThreshold: 1000 },
  });
  let state = initialState({ sessionId: options.sessionId, interactive: true, host: "test" });
  let at = Date.UTC(2026, 10, 22, 9, 0, 0);
  let callIndex = 0;
  const nextCall = () => {
    callIndex += 1;
    return callIndex;
  };
  const base = () => {
    at += 1000;
    return { at, sessionId: options.sessionId };
  };
  async function send(event: ToolgateEvent): Promise<Effect[]> {
    const result = step(state, event, config);
    state = result.state;
    await options.deliver(result.effects, { sessionId: options.sessionId, state });
    return result.effects;
  }
  return {
    state: () => state,
    turnStarted: () => send({ type: "turn.started", ...base() }),
    turnEnded: (outcome: "completed" | "error" | "cancelled" = "completed") =>
      send({ type: "turn.ended", ...base(), outcome }),
    sessionEnded: () => send({ type: "session.ended", ...base() }),
    denied: (tool: string, input: unknown, reason = "blocked by rule") =>
      send({
        type: "call.denied",
        ...base(),
        call: { toolUseId: `toolu_${nextCall()}`, tool, input },
        source: "rule",
        reason,
        rule: `${tool}(*)`,
      }),
  };
}
