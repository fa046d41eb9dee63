import { beforeEach, describe, expect, it } from "vitest";
import { bash, event, ofType, resetClock, run, testConfig, toolCall } from "../../test/support/core-fixtures.js";
import type { ToolCall } from "./events.js";

beforeEach(() => resetClock());

const requested = (call: ToolCall) => event("call.requested", { call });

describe("loop detection", () => {
  it("walks an identical-call streak up the observe -> steer -> block -> stop ladder", () => {
    // interactive: the blocked calls are loop denials that escalate (never to an abort) while the ladder climbs
    const { steps, state } = run(
      Array.from({ length: 11 }, () => requested(bash("npm test"))),
      { interactive: true },
    );
    const levels = steps.map((effects) => {
      if (ofType(effects, "abort").length > 0) return "stop";
      if (ofType(effects, "block").length > 0) return "block";
      if (ofType(effects, "loop").length > 0) return "steer";
      if (ofType(effects, "audit").some((effect) => effect.event.kind === "loop.detected")) return "observe";
      return "-";
    });
    expect(levels).toEqual(["-", "-", "observe", "steer", "steer", "block", "block", "block", "block", "stop", "stop"]);
    expect(state.aborted).toMatchObject({ reason: "loop" });
    // a call after the stop is refused with the same abort, told again, and recorded with the source `aborted`
    const [first] = ofType(steps[9]!, "abort");
    const [again] = ofType(steps[10]!, "abort");
    expect(again).toMatchObject({ repeat: true, error: first!.error, text: first!.text });
    expect(ofType(steps[10]!, "record")[0]!.record.source).toBe("aborted");
    expect(ofType(steps[10]!, "decision")[0]!.decision).toMatchObject({ behavior: "deny", denialSource: "aborted" });
    expect(ofType(steps[10]!, "block")).toHaveLength(0);
  });

  it("treats inputs with keys in a different order as the same call", () => {
    const calls = [
      toolCall("Grep", { pattern: "x", path: "src" }),
      toolCall("Grep", { path: "src", pattern: "x" }),
      toolCall("Grep", { pattern: "x", path: "src" }),
    ];
    const { effects } = run(calls.map(requested));
    expect(ofType(effects, "audit").filter((effect) => effect.event.kind === "loop.detected")).toHaveLength(1);
  });

  it("treats retries that differ only by volatile values as the same call", () => {
    const calls = [
      bash("curl http://localhost:41234/health?t=1731000000000"),
      bash("curl  http://localhost:52811/health?t=1731000009999"),
      bash("curl http://localhost:60001/health?t=1731000123456"),
    ];
    const { effects } = run(calls.map(requested));
    expect(ofType(effects, "audit").some((effect) => effect.event.kind === "loop.detected")).toBe(true);
  });

  it("detects an A-B-A-B cycle", () => {
    const a = bash("git stash");
    const b = bash("git stash pop");
    const { effects } = run([a, b, a, b, a, b, a, b].map((call) => requested({ ...call })));
    const detected = ofType(effects, "audit").filter((effect) => effect.event.kind === "loop.detected");
    expect(detected[0]!.event.detail).toMatchObject({ kind: "cycle", cycleLength: 2, repeats: 3 });
    expect(ofType(effects, "loop")[0]).toMatchObject({ kind: "cycle", repeats: 4 });
  });

  it("detects cycles up to length 5 and not beyond the configured length", () => {
    const cycle = ["a", "b", "c", "d", "e"].map((name) => bash(`step ${name}`));
    const calls = [...cycle, ...cycle, ...cycle];
    expect(ofType(run(calls.map(requested)).effects, "audit").some((e) => e.event.kind === "loop.detected")).toBe(true);
    const short = testConfig({ loop: { maxCycleLength: 4 } });
    const none = run(calls.map(requested), { config: short });
    expect(ofType(none.effects, "audit").some((e) => e.event.kind === "loop.detected")).toBe(false);
  });

  it("does not flag running the tests after each edit when the edits change", () => {
    const calls: ToolCall[] = [];
    for (let index = 0; index < 10; index++) {
      calls.push(toolCall("Edit", { file_path: "src/a.ts", old_string: `v${index}`, new_string: `v${index + 1}` }));
      calls.push(bash("npm test"));
    }
    const { effects } = run(calls.map(requested));
    expect(ofType(effects, "audit").filter((effect) => effect.event.kind === "loop.detected")).toHaveLength(0);
    expect(ofType(effects, "block")).toHaveLength(0);
  });

  it("exempt tools neither enter nor break the window", () => {
    const config = testConfig({ loop: { exemptTools: ["Bash"] } });
    const { effects } = run(
      Array.from({ length: 12 }, () => requested(bash("sleep 1"))),
      { config },
    );
    expect(effects.filter((effect) => effect.type !== "decision")).toHaveLength(0);
  });

  it("levels can be turned off except stop", () => {
    const config = testConfig({ loop: { observe: false, steer: false, block: false, stop: 5 } });
    const { steps } = run(
      Array.from({ length: 5 }, () => requested(bash("x"))),
      { config },
    );
    expect(
      steps
        .slice(0, 4)
        .flat()
        .filter((effect) => effect.type !== "decision"),
    ).toHaveLength(0);
    expect(ofType(steps[4]!, "abort")).toHaveLength(1);
  });

  it("a real user message clears the window", () => {
    const { effects } = run([
      requested(bash("x")),
      requested(bash("x")),
      event("turn.started", {}),
      requested(bash("x")),
    ]);
    expect(effects.filter((effect) => effect.type !== "flush" && effect.type !== "decision")).toHaveLength(0);
  });

  it("steers after the same error from the same tool three times; a success clears it", () => {
    const fail = (error: string) => event("call.failed", { call: bash("make"), error });
    const { steps } = run([
      fail("make: *** [all] Error 2 at 2026-01-01T00:00:01Z"),
      fail("make: *** [all] Error 2 at 2026-01-01T00:00:09Z"),
      fail("make: *** [all] Error 2 at 2026-01-01T00:01:00Z"),
      event("call.succeeded", { call: bash("make") }),
      fail("make: *** [all] Error 2"),
    ]);
    expect(ofType(steps[1]!, "loop")).toHaveLength(0);
    expect(ofType(steps[2]!, "loop")[0]).toMatchObject({ kind: "same-error", repeats: 3, level: "steer" });
    expect(ofType(steps[4]!, "loop")).toHaveLength(0);
  });

  it("keeps loop streaks separate from denial streaks", () => {
    const { state } = run(Array.from({ length: 4 }, () => requested(bash("npm test"))));
    expect(state.total).toBe(0);
    expect(state.agents["main"]!.tools).toEqual({});
  });
});
