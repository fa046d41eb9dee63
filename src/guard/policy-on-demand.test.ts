import { describe, expect, it, vi } from "vitest";
import type { Effect } from "../core/effects.js";
import type { ToolCall } from "../core/events.js";
import type { EvaluateOptions, PolicyDecision, ToolCallInput } from "../policy/policy-types.js";
import { createGuard, type PolicyEvaluator } from "./create-guard.js";

const bash = (command: string, toolUseId: string): ToolCall => ({ toolUseId, tool: "Bash", input: { command } });
const warning = { code: "RULE_SYNTAX", message: "Bash(rm is not a rule (~/.gemini/policies/bad.toml)" };

/**
 * A policy built on first use (`prepare`), as the composition root gives a hook process: it denies `rm`, asks for
 * `git push`, allows the rest. `evaluate` and `canGrant` throw when called before `prepare` resolved.
 */
function onDemandPolicy(options: { fails?: boolean } = {}) {
  let built = false;
  const prepare = vi.fn(async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (options.fails === true) throw new Error("~/.gemini/policies/bad.toml: invalid TOML at line 1");
    built = true;
    return { warnings: [warning] };
  });
  const check = (what: string) => {
    if (!built) throw new Error(`${what} before the policy was built`);
  };
  const canGrant = vi.fn((_call: ToolCallInput) => {
    check("canGrant");
    return true;
  });
  const policy: PolicyEvaluator = {
    evaluate(call: ToolCallInput, evaluateOptions: EvaluateOptions): PolicyDecision {
      check("evaluate");
      const command = (call.input as { command: string }).command;
      if (command.startsWith("rm"))
        return { behavior: "deny", source: "policy", rule: "Bash(rm *)", reason: "rm is denied", denialSource: "rule" };
      if (command.startsWith("git push"))
        return evaluateOptions.interactive
          ? { behavior: "ask", source: "policy", rule: "Bash(git push)", reason: "needs approval" }
          : { behavior: "deny", source: "policy", reason: "needs approval", denialSource: "headless" };
      return { behavior: "allow", source: "policy", rule: "Bash", reason: "allowed" };
    },
    canGrant,
    prepare,
  };
  return { policy, prepare, canGrant };
}

const warnings = (effects: readonly Effect[]) => effects.filter((effect) => effect.type === "warning");

describe("a policy built on demand (a hook event that consults no rule reads no rule file)", () => {
  it("steps that consult no rule never build it; a decision builds it once, before it evaluates", async () => {
    const { policy, prepare } = onDemandPolicy();
    const session = createGuard({ policy }).session("s", { interactive: false });
    await session.turnStarted({ prompt: "go on" });
    await session.allowed(bash("ls", "t0"));
    await session.succeeded(bash("ls", "t0"), { output: "a\nb" });
    await session.failed(bash("make", "t1"), { error: "Exit code 2\nmake: *** No rule to make target" });
    await session.subagentStarted("a1");
    await session.subagentStopped("a1");
    await session.turnEnded({ outcome: "completed" });
    expect(prepare).not.toHaveBeenCalled();
    expect((await session.decide(bash("rm -rf build", "t2"))).decision).toMatchObject({
      behavior: "deny",
      rule: "Bash(rm *)",
    });
    expect((await session.decide(bash("ls", "t3"))).decision.behavior).toBe("allow");
    await session.end();
    expect(prepare).toHaveBeenCalledTimes(1);
  });

  it("a refusal the host reports builds it before its step: at the threshold a grant is offered only if it may be", async () => {
    const { policy, prepare, canGrant } = onDemandPolicy();
    const session = createGuard({ policy }).session("s", { interactive: true });
    const effects: Effect[] = [];
    for (const id of ["t1", "t2", "t3"])
      effects.push(...(await session.denied(bash("git push", id), { source: "user", reason: "user said no" })));
    expect(prepare).toHaveBeenCalledTimes(1);
    expect(canGrant).toHaveBeenCalled();
    expect(effects.some((effect) => effect.type === "offer-grant")).toBe(true);
  });

  it("a headless session's refusals never build it: its escalation (here an abort) asks no policy", async () => {
    const { policy, prepare } = onDemandPolicy();
    const session = createGuard({ policy }).session("s", { interactive: false });
    const effects: Effect[] = [];
    for (const id of ["t1", "t2", "t3", "t4"])
      effects.push(...(await session.denied(bash("git push", id), { source: "headless", reason: "needs approval" })));
    await session.succeeded(bash("cat /root/x", "t5"), { output: "cat: /root/x: Permission denied", exitCode: 1 });
    expect(effects.some((effect) => effect.type === "abort")).toBe(true);
    expect((await session.state()).total).toBe(5);
    expect(prepare).not.toHaveBeenCalled();
  });

  it("an OS denial in a call's output (a refusal too) and the host's refusals found later build it first", async () => {
    const first = onDemandPolicy();
    const session = createGuard({ policy: first.policy }).session("s", { interactive: true });
    await session.succeeded(bash("cat /root/x", "t1"), { output: "cat: /root/x: Permission denied", exitCode: 1 });
    expect(first.prepare).toHaveBeenCalledTimes(1);
    const second = onDemandPolicy();
    const other = createGuard({ policy: second.policy }).session("s2", { interactive: true });
    await other.deniedUnlessRecorded([
      { call: bash("git push", "t1"), options: { source: "user", reason: "user said no" } },
    ]);
    expect(second.prepare).toHaveBeenCalledTimes(1);
  });

  it("its warnings go out once per session, with the session's first step after it was built", async () => {
    const { policy } = onDemandPolicy();
    const guard = createGuard({ policy });
    const session = guard.session("s", { interactive: false });
    expect(warnings(await session.turnStarted())).toEqual([]);
    expect(warnings((await session.decide(bash("ls", "t1"))).effects)).toEqual([{ type: "warning", ...warning }]);
    expect(warnings((await session.decide(bash("ls", "t2"))).effects)).toEqual([]);
    // a session whose first step comes after the build (a long-lived host) gets them with it
    expect(warnings(await guard.session("s2", { interactive: false }).turnStarted())).toEqual([
      { type: "warning", ...warning },
    ]);
  });

  it("a policy that cannot be built denies every call (fail closed), says why once, and refusals are still recorded", async () => {
    const { policy, canGrant } = onDemandPolicy({ fails: true });
    const onError = vi.fn();
    const session = createGuard({ policy, onError }).session("s", { interactive: true });
    await session.turnStarted();
    for (const id of ["t1", "t2"]) {
      const result = await session.decide(bash("ls", id));
      expect(result.decision.behavior).toBe("deny");
      expect(result.decision.reason).toMatch(/bad\.toml/);
    }
    expect(onError.mock.calls.map(([, where]) => where)).toEqual(["decide", "decide"]);
    // the host's refusals are counted and recorded without it; at the threshold no grant is offered
    const effects: Effect[] = [];
    for (const id of ["t3", "t4", "t5"])
      effects.push(...(await session.denied(bash("git push", id), { source: "user", reason: "no" })));
    expect(effects.some((effect) => effect.type === "offer-grant")).toBe(false);
    expect(canGrant).not.toHaveBeenCalled();
    expect((await session.state()).records.map((record) => record.toolUseId)).toEqual(["t1", "t2", "t3", "t4", "t5"]);
    expect(onError).toHaveBeenCalledTimes(2);
    await session.turnEnded({ outcome: "completed" });
  });

  it("when no decision came first, a refusal says once that the policy could not be built", async () => {
    const { policy } = onDemandPolicy({ fails: true });
    const onError = vi.fn();
    const session = createGuard({ policy, onError }).session("s", { interactive: true });
    await session.denied(bash("rm x", "t1"), { source: "user", reason: "no" });
    await session.denied(bash("rm y", "t2"), { source: "user", reason: "no" });
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ message: expect.stringMatching(/bad\.toml/) }),
      expect.stringMatching(/^building the policy/),
    );
    expect((await session.state()).total).toBe(2);
  });
});
