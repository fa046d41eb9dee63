import { beforeEach, describe, expect, it } from "vitest";
import { bash, denied, event, ofType, resetClock, run, testConfig } from "../../test/support/core-fixtures.js";
import { MAX_PENDING_TOKEN_CALLS } from "./call-tokens.js";

beforeEach(() => resetClock());

const summaryOf = (effects: ReturnType<typeof run>["effects"]) =>
  ofType(effects, "audit").find((effect) => effect.event.kind === "session.summary")?.event.detail;

describe("wasted tokens from a live hook (core/call-tokens.ts)", () => {
  it("sums the tokens of the denials of a pattern after its first, named at a turn's or the session's end", () => {
    const { effects, state } = run([
      denied(bash("rm -rf a", "c1")),
      denied(bash("rm -rf b", "c2")),
      denied(bash("ls x", "c3")),
      event("turn.ended", { callTokens: { c1: 100, c2: 120, c3: 90, other: 5 } }),
      denied(bash("rm -rf c", "c4")),
      event("session.ended", { callTokens: { c4: 30 } }),
    ]);
    // c1 is the pattern's first denial and c3 another pattern's first: only c2 and c4 are wasted
    expect(summaryOf(effects)?.["wastedTokens"]).toBe(150);
    expect(state.tokens).toEqual({ wasted: 150, named: true, pending: [] });
  });

  it("a host that never names tokens leaves the figure out (unknown), and a wasted call waits for them", () => {
    const { effects, state } = run([
      denied(bash("rm -rf a", "c1")),
      denied(bash("rm -rf b", "c2")),
      event("turn.ended", {}),
      event("session.ended", {}),
    ]);
    expect(summaryOf(effects)).not.toHaveProperty("wastedTokens");
    expect(state.tokens?.pending).toEqual(["c2"]);
  });

  it("a transcript read that names no tokens: the waiting calls wait no longer, the figure stays unknown", () => {
    const { effects, state } = run([
      denied(bash("rm -rf a", "c1")),
      denied(bash("rm -rf b", "c2")),
      // read, and nothing named: the waiting id is not in it, or its request has no usage
      event("turn.ended", { callTokens: { c2: 0 } }),
      event("session.ended", {}),
    ]);
    expect(summaryOf(effects)).not.toHaveProperty("wastedTokens");
    expect(state.tokens).toEqual({ wasted: 0, named: false, pending: [] });
  });

  it("a named transcript that does not show a wasted call (a subagent's file): 0 for it, it waits no longer", () => {
    const { effects } = run([
      denied(bash("rm -rf a", "c1")),
      denied(bash("rm -rf b", "c2")),
      event("session.ended", { callTokens: { c1: 100 } }),
    ]);
    expect(summaryOf(effects)?.["wastedTokens"]).toBe(0);
  });

  it("a subagent's own transcript at its stop: only the waiting calls it names stop waiting", () => {
    const sub = { agentId: "a1" };
    const { effects, state } = run([
      denied(bash("rm -rf a", "m1")),
      denied(bash("rm -rf b", "m2")),
      denied(bash("rm -rf a", "s1"), "rule", sub),
      denied(bash("rm -rf b", "s2"), "rule", sub),
      event("subagent.stopped", { agentId: "a1", callTokens: { s1: 100, s2: 120 } }),
    ]);
    // m2 (the main agent's) still waits for the session's transcript; s2 (the subagent's) is counted
    expect(state.tokens).toEqual({ wasted: 120, named: true, pending: ["m2"] });
    const end = run([event("session.ended", { callTokens: { m2: 90 } })], { state });
    expect(summaryOf([...effects, ...end.effects])?.["wastedTokens"]).toBe(210);
  });

  it("keeps at most MAX_PENDING_TOKEN_CALLS waiting calls, the newest", () => {
    const events = Array.from({ length: MAX_PENDING_TOKEN_CALLS + 2 }, (_, index) =>
      denied(bash(`rm -rf d${index}`, `c${index}`)),
    );
    const { state } = run(events);
    expect(state.tokens?.pending).toHaveLength(MAX_PENDING_TOKEN_CALLS);
    expect(state.tokens?.pending.at(-1)).toBe(`c${MAX_PENDING_TOKEN_CALLS + 1}`);
    expect(state.tokens?.pending[0]).toBe("c2");
  });

  it("keeps none with pendingTokenCalls 0 (analyze's replay, which counts wasted tokens itself)", () => {
    const { state } = run([denied(bash("rm -rf a", "c1")), denied(bash("rm -rf b", "c2"))], {
      config: { ...testConfig(), pendingTokenCalls: 0 },
    });
    expect(state.tokens).toBeUndefined();
  });
});
