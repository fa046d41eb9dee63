import { describe, expect, test } from "vitest";
import type { AbortEffect } from "../../core/effects.js";
import type { Guard } from "../../guard/create-guard.js";
import type { GuardSession } from "../../guard/types.js";
import { createStopControl } from "./cline-stop.js";
import { createClinePlugin } from "./create-cline-plugin.js";

const abort: AbortEffect = {
  type: "abort",
  tool: "run_commands",
  count: 2,
  signature: "git push",
  error: "toolgate aborted the run: run_commands was denied 2 times",
  text: "The run is being stopped.",
  reason: "denials",
};

describe("Cline's stop", () => {
  test("an abort is told at the first hook that answers after it appears, once a run", () => {
    const told: string[] = [];
    const stop = createStopControl((line) => told.push(line));
    expect(stop.answer()).toBeUndefined();
    // seen in a hook that cannot answer (afterRun): told at the next one
    stop.note([abort]);
    expect(stop.answer()).toEqual({ stop: true, reason: abort.error });
    // delivered: the abort repeated on later calls is not told again in this run
    stop.note([{ ...abort, repeat: true }]);
    expect(stop.answer()).toBeUndefined();
    expect(told).toEqual([`toolgate: ${abort.error}`]);
    // a new run is told again
    stop.newRun();
    expect(stop.answer()).toBeUndefined();
    stop.note([{ ...abort, repeat: true }]);
    expect(stop.answer()).toEqual({ stop: true, reason: abort.error });
  });

  test("an abort reached when a run starts answers stop from beforeRun", async () => {
    const session = {
      turnStarted: async () => [abort],
      turnEnded: async () => [],
    } as unknown as GuardSession;
    const guard = { session: () => session, drain: async () => undefined } as unknown as Guard;
    const plugin = createClinePlugin({
      open: async () => ({ guard, close: async () => undefined }),
      environment: {},
      tell: () => undefined,
    });
    await plugin.setup({}, { session: { sessionId: "s" } });
    expect(await plugin.hooks.beforeRun({})).toEqual({ stop: true, reason: abort.error });
    // told once: a tool call toolgate does not know of (`afterTool` of a refused call) does not stop it again
    expect(await plugin.hooks.afterTool({ toolCall: { toolCallId: "x" } })).toBeUndefined();
  });
});
