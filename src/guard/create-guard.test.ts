import { describe, expect, it, vi } from "vitest";
import type { Effect } from "../core/effects.js";
import type { ToolCall } from "../core/events.js";
import type { SessionState } from "../core/state.js";
import { compilePolicy } from "../policy/compile-policy.js";
import type { EvaluateOptions, PolicyDecision, ToolCallInput } from "../policy/policy-types.js";
import type { StoredDenial } from "../store/ports.js";
import { type AuditSink, createGuard, type PolicyEvaluator } from "./create-guard.js";
import { createLruStateStore } from "./lru-state-store.js";

const bash = (command: string, toolUseId: string): ToolCall => ({ toolUseId, tool: "Bash", input: { command } });

/** A policy double: denies `rm`, asks for `git push`, allows the rest; records what the guard passed. */
function fakePolicy() {
  const seen: EvaluateOptions[] = [];
  const policy: PolicyEvaluator = {
    evaluate(call: ToolCallInput, options: EvaluateOptions): PolicyDecision {
      seen.push(options);
      const command = (call.input as { command: string }).command;
      if (command.startsWith("rm"))
        return { behavior: "deny", source: "policy", rule: "Bash(rm *)", reason: "rm is denied", denialSource: "rule" };
      if (command.startsWith("git push")) {
        if (options.grants?.includes("Bash(git push)"))
          return { behavior: "allow", source: "grant", rule: "Bash(git push)", reason: "granted" };
        return options.interactive
          ? { behavior: "ask", source: "policy", rule: "Bash(git push)", reason: "needs approval" }
          : {
              behavior: "deny",
              source: "policy",
              rule: "Bash(git push)",
              reason: "needs approval (headless)",
              denialSource: "headless",
            };
      }
      return { behavior: "allow", source: "policy", rule: "Bash", reason: "allowed" };
    },
  };
  return { policy, seen };
}

describe("createGuard", () => {
  it("without a policy, never objects and still counts host-reported denials", async () => {
    const session = createGuard().session("s", { interactive: false });
    const result = await session.decide(bash("rm -rf /", "t1"));
    expect(result.decision).toMatchObject({ behavior: "allow", source: "default" });
    await session.denied(bash("rm -rf /", "t1"), { source: "headless", reason: "needs approval" });
    expect((await session.state()).total).toBe(1);
  });

  it("records a policy deny with its rule and gives the model guidance; aborts headless at the threshold", async () => {
    const { policy } = fakePolicy();
    const session = createGuard({ policy }).session("s", { interactive: false });
    const first = await session.decide(bash("rm -rf build", "t1"));
    expect(first.decision).toMatchObject({ behavior: "deny", rule: "Bash(rm *)" });
    expect(first.text).toContain("Denied by rule Bash(rm *)");
    const record = first.effects.find((effect) => effect.type === "record");
    expect(record).toMatchObject({ record: { source: "rule", rule: "Bash(rm *)", pattern: "rm" } });
    const second = await session.decide(bash("rm -rf ./build", "t2"));
    expect(second.effects.some((effect) => effect.type === "abort")).toBe(true);
  });

  it("judges a call on its own input when the host reuses a call id (no deny rule skipped, no grant stretched)", async () => {
    const { policy } = fakePolicy();
    const session = createGuard({ policy }).session("s", { interactive: true });
    expect((await session.decide(bash("ls", "call_0"))).decision.behavior).toBe("allow");
    // a model server that numbers every turn's calls from call_0: the next call_0 is another call
    const reused = await session.decide(bash("rm -rf /", "call_0"));
    expect(reused.decision).toMatchObject({ behavior: "deny", rule: "Bash(rm *)" });
    const record = reused.effects.find((effect) => effect.type === "record");
    expect(record).toMatchObject({ record: { toolUseId: "call_0", pattern: "rm" } });
    // the same call's later events (the same input, another object) still share its facts
    await session.decide(bash("git push", "call_1"));
    const state = await session.state();
    expect(state.records.map((entry) => entry.pattern)).toEqual(["rm"]);
    expect((await session.decide({ ...bash("ls", "call_0"), input: { command: "ls" } })).decision.behavior).toBe(
      "allow",
    );
  });

  it("an ask nobody can answer is recorded as a headless denial (the real policy's ask rule)", async () => {
    const policy = compilePolicy({
      rules: [{ rule: "Bash(git push:*)", behavior: "ask", origin: "test settings" }],
      cwd: "/tmp/toolgate-guard/project",
      homeDir: "/tmp/toolgate-guard/home",
    });
    const headless = createGuard({ policy }).session("s", { interactive: false });
    const result = await headless.decide(bash("git push origin main", "t1"));
    expect(result.decision).toMatchObject({ behavior: "deny", denialSource: "headless", rule: "Bash(git push:*)" });
    expect(result.effects.find((effect) => effect.type === "record")).toMatchObject({ record: { source: "headless" } });
    expect(result.text).toContain("non-interactive");
    // the same ask in an interactive session is left to the person, and nothing is recorded
    const interactive = createGuard({ policy }).session("s", { interactive: true });
    const asked = await interactive.decide(bash("git push origin main", "t1"));
    expect(asked.decision.behavior).toBe("ask");
    expect(asked.effects.some((effect) => effect.type === "record")).toBe(false);
    // a host that prompts (or auto-denies and reports it) itself keeps it an ask even headless
    const hostAsks = await createGuard({ policy })
      .session("s2", { interactive: false })
      .decide(bash("git push origin main", "t1"), { hostAsks: true });
    expect(hostAsks.decision.behavior).toBe("ask");
    expect(hostAsks.effects.some((effect) => effect.type === "record")).toBe(false);
  });

  it("a session grant reaches the policy only after a person accepts the offer", async () => {
    const { policy, seen } = fakePolicy();
    const session = createGuard({ policy }).session("s", { interactive: true });
    const call = (id: string) => bash("git push", id);
    expect((await session.decide(call("t1"))).decision.behavior).toBe("ask");
    await session.denied(call("t1"), { source: "user", reason: "user said no" });
    await session.decide(call("t2"));
    const effects = await session.denied(call("t2"), { source: "user", reason: "user said no" });
    await session.decide(call("t3"));
    const effects3 = await session.denied(call("t3"), { source: "user", reason: "user said no" });
    const offer = [...effects, ...effects3].find((effect) => effect.type === "offer-grant");
    expect(offer).toBeDefined();
    expect(seen.at(-1)?.grants).toEqual([]);
    if (offer?.type !== "offer-grant") throw new Error("no offer");
    await session.answerGrant(offer.offerId, true, { answeredBy: "tester" });
    const after = await session.decide(call("t4"));
    expect(after.decision).toMatchObject({ behavior: "allow", source: "grant" });
    expect(seen.at(-1)?.grants).toEqual([offer.scope.rule]);
  });

  it("never offers a grant the policy says could not work (a deny rule or neverGrant)", async () => {
    const { policy } = fakePolicy();
    const strict: PolicyEvaluator = { evaluate: policy.evaluate, canGrant: () => false };
    const session = createGuard({ policy: strict }).session("s", { interactive: true });
    const effects = [];
    for (const id of ["t1", "t2", "t3"]) {
      await session.decide(bash("git push", id));
      effects.push(...(await session.denied(bash("git push", id), { source: "user", reason: "no" })));
    }
    expect(effects.some((effect) => effect.type === "offer-grant")).toBe(false);
    expect(effects.some((effect) => effect.type === "guidance" && effect.stage === "escalated")).toBe(true);
  });

  it("fails closed: an error inside the policy becomes a deny, never an allow, and is reported", async () => {
    const onError = vi.fn();
    const policy: PolicyEvaluator = {
      evaluate() {
        throw new Error("boom");
      },
    };
    const session = createGuard({ policy, onError }).session("s", { interactive: true });
    const result = await session.decide(bash("ls", "t1"));
    expect(result.decision).toMatchObject({ behavior: "deny", source: "toolgate", denialSource: "internal" });
    expect(result.decision.reason).toContain("blocked it to be safe (decide: boom)");
    expect(result.decision.reason).not.toContain("rule");
    expect(onError).toHaveBeenCalledWith(expect.any(Error), "decide");
    // the refusal is counted and recorded with its own source, never as a rule denial
    const records = (await session.state()).records;
    expect(records.map((record) => [record.source, record.toolUseId])).toEqual([["internal", "t1"]]);
  });

  it("a failing sink does not change the decision; a hanging sink does not hold it", async () => {
    const onError = vi.fn();
    const failing: AuditSink = {
      deliver() {
        throw new Error("sink down");
      },
    };
    const hanging: AuditSink = { deliver: () => new Promise<void>(() => {}) };
    const { policy } = fakePolicy();
    const guard = createGuard({ policy, sinks: [failing, hanging], onError, sinkWaitMs: 10 });
    const result = await guard.session("s", { interactive: false }).decide(bash("rm x", "t1"));
    expect(result.decision.behavior).toBe("deny");
    expect(onError).toHaveBeenCalledWith(expect.any(Error), "audit sink");
  });

  it("sinks receive records with secrets redacted", async () => {
    const delivered: Effect[] = [];
    const sink: AuditSink = {
      deliver(effects) {
        delivered.push(...effects);
      },
    };
    const { policy } = fakePolicy();
    const session = createGuard({ policy, sinks: [sink] }).session("s", { interactive: false });
    const token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    await session.decide(bash(`rm -rf build && curl -H "Authorization: token ${token}" x`, "t1"));
    expect(delivered.some((effect) => effect.type === "record")).toBe(true);
    expect(JSON.stringify(delivered)).not.toContain(token);
  });

  it("loop blocks become denials with source loop", async () => {
    const guard = createGuard({ core: { loop: { observe: 2, steer: 3, block: 4, stop: 9 } } });
    const session = guard.session("s", { interactive: true });
    let last = await session.decide(bash("sleep 1", "t0"));
    for (let index = 1; index < 4; index++) last = await session.decide(bash("sleep 1", `t${index}`));
    expect(last.decision).toMatchObject({ behavior: "deny", source: "toolgate" });
    expect(last.effects.find((effect) => effect.type === "record")).toMatchObject({ record: { source: "loop" } });
  });
});

describe("failures", () => {
  it("classifies an OS permission error in a failure as a sandbox denial; an ordinary failure is not", async () => {
    const session = createGuard().session("s", { interactive: false });
    const denied = await session.failed(bash("mkdir /etc/x", "t1"), {
      error: "mkdir: cannot create directory '/etc/x': Permission denied",
      exitCode: 1,
    });
    expect(denied.find((effect) => effect.type === "record")).toMatchObject({ record: { source: "sandbox" } });
    const ordinary = await session.failed(bash("grep nothing file", "t2"), { error: "", exitCode: 1 });
    expect(ordinary.some((effect) => effect.type === "record")).toBe(false);
  });
});

describe("state across processes", () => {
  it("counting survives a new guard per call (Qwen's per-call headless executor bug): the 4th denial is hard", async () => {
    const stateStore = createLruStateStore();
    const texts: string[] = [];
    for (let index = 0; index < 4; index++) {
      // a fresh guard each time, as a per-event hook process would create, sharing only the state store
      const guard = createGuard({ stateStore, core: { headlessStrategy: "fallback" } });
      const effects = await guard
        .session("run-1", { interactive: false })
        .denied(bash("rm -rf build", `t${index}`), { source: "headless", reason: "needs approval" });
      texts.push(effects.find((effect) => effect.type === "guidance")?.text ?? "");
    }
    expect(texts[3]).toContain("STOP");
    expect(texts[0]).not.toContain("STOP");
  });

  it("a new session id starts from zero and flushes nothing of the old one (agent-code's session swap)", async () => {
    const guard = createGuard();
    await guard.session("old", { interactive: true }).denied(bash("rm a", "t1"), { source: "user", reason: "no" });
    const fresh = guard.session("new", { interactive: true });
    expect((await fresh.state()).total).toBe(0);
    const effects = await fresh.turnEnded();
    expect(effects.filter((effect) => effect.type === "flush")).toHaveLength(0);
  });
});

describe("deniedUnlessRecorded", () => {
  const storedRow = (toolUseId: string) => ({ id: 1, toolUseId }) as unknown as StoredDenial;
  const counting = (rows: StoredDenial[]) => {
    const query = vi.fn(async () => rows);
    return { store: { query }, query };
  };
  const no = (toolUseId: string) => ({
    call: bash("rm x", toolUseId),
    options: { source: "user" as const, reason: "no" },
  });
  const recordedIds = async (session: { state(): Promise<{ records: { toolUseId: string }[] }> }) =>
    (await session.state()).records.map((record) => record.toolUseId);

  it("records only the calls not yet recorded, asking the state alone when it holds every record", async () => {
    const { store, query } = counting([storedRow("elsewhere")]);
    const stateStore = createLruStateStore();
    const guard = createGuard({ stateStore, denialStore: store });
    await guard.session("s", { interactive: true }).denied(bash("rm a", "t1"), { source: "user", reason: "no" });
    const later = createGuard({ stateStore, denialStore: store }).session("s", { interactive: true });
    await later.deniedUnlessRecorded([no("t1"), no("t2")]);
    expect(await recordedIds(later)).toEqual(["t1", "t2"]);
    expect(query).not.toHaveBeenCalled();
    // recordedCallIds still reads the store as before
    expect(await later.recordedCallIds()).toEqual(new Set(["t1", "t2", "elsewhere"]));
    expect(query).toHaveBeenCalledTimes(1);
  });

  it("reads the store for a session with no state yet, or whose buffer evicted records", async () => {
    const { store, query } = counting([storedRow("old"), storedRow("t1")]);
    const fresh = createGuard({ denialStore: store }).session("new", { interactive: true });
    await fresh.deniedUnlessRecorded([no("old"), no("n1")]);
    expect(await recordedIds(fresh)).toEqual(["n1"]);
    expect(query).toHaveBeenCalledTimes(1);
    const small = createGuard({ denialStore: store, core: { recordBufferSize: 1 } }).session("s", {
      interactive: true,
    });
    await small.denied(bash("rm a", "t1"), { source: "user", reason: "no" });
    await small.denied(bash("rm b", "t2"), { source: "user", reason: "no" });
    // t1 left the buffer: only the store can say it is recorded
    expect(await small.deniedUnlessRecorded([no("t1")])).toEqual([]);
    expect(query).toHaveBeenCalledTimes(2);
    // a call the buffer still holds needs no store
    expect(await small.deniedUnlessRecorded([no("t2")])).toEqual([]);
    expect(query).toHaveBeenCalledTimes(2);
    expect((await small.state()).total).toBe(2);
  });

  it("a session past its buffer needs no store for a call it never recorded (its filter of evicted ids)", async () => {
    const { store, query } = counting([storedRow("t1")]);
    const stateStore = createLruStateStore();
    const options = { stateStore, denialStore: store, core: { recordBufferSize: 2 } };
    const long = createGuard(options).session("s", { interactive: true });
    for (const id of ["t1", "t2", "t3", "t4"])
      await long.denied(bash(`rm ${id}`, id), { source: "user", reason: "no" });
    // a new process, as the next hook event: a person's "no" the transcript shows and no hook saw
    const next = createGuard(options).session("s", { interactive: true });
    const recorded = await next.deniedUnlessRecorded([no("n1")]);
    expect(recorded.filter((effect) => effect.type === "record")).toHaveLength(1);
    expect(query).not.toHaveBeenCalled();
    // a call recorded long ago (evicted) is still recorded once: only the store can tell, and it is read
    expect(await next.deniedUnlessRecorded([no("t1"), no("n2")])).not.toEqual([]);
    expect(query).toHaveBeenCalledTimes(1);
    expect(await recordedIds(next)).toEqual(["n1", "n2"]);
    expect((await next.state()).total).toBe(6);
  });

  it("a state that evicted records before it kept the filter reads the store, as before", async () => {
    const { store, query } = counting([]);
    const stateStore = createLruStateStore();
    const options = { stateStore, denialStore: store, core: { recordBufferSize: 2 } };
    const long = createGuard(options).session("s", { interactive: true });
    for (const id of ["t1", "t2", "t3"]) await long.denied(bash(`rm ${id}`, id), { source: "user", reason: "no" });
    // the same state as an older toolgate saved it: no filter
    await stateStore.update("s", (state) => {
      const { evictedIds: _dropped, ...older } = state as SessionState;
      return older;
    });
    await createGuard(options)
      .session("s", { interactive: true })
      .deniedUnlessRecorded([no("n1")]);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it("makes the same steps as one `denied` each, in one state transaction and one delivery", async () => {
    const denials = ["rm a", "rm b", "rm c"].map((command, index) => ({
      call: bash(command, `t${index}`),
      options: { source: "user" as const, reason: "no", at: 1_000 + index },
    }));
    const one = createGuard().session("s", { interactive: false });
    const each: Effect[] = [];
    for (const { call, options } of denials) each.push(...(await one.denied(call, options)));

    const stateStore = createLruStateStore();
    const update = vi.spyOn(stateStore, "update");
    const delivered: number[] = [];
    const sink: AuditSink = { deliver: async (effects) => void delivered.push(effects.length) };
    const all = createGuard({ stateStore, sinks: [sink] }).session("s", { interactive: false });
    // a call the list names twice is recorded once
    const together = await all.deniedUnlessRecorded([...denials, denials[1]!]);
    expect(together).toEqual(each);
    expect(await all.state()).toEqual(await one.state());
    expect(update).toHaveBeenCalledTimes(1);
    expect(delivered).toEqual([together.length]);
    expect(await all.deniedUnlessRecorded([])).toEqual([]);
    expect(await all.deniedUnlessRecorded(denials)).toEqual([]);
    expect(update).toHaveBeenCalledTimes(1);
  });

  it("cannotAsk: an ask a rule made is a headless denial in the same step, even with hostAsks; a default ask stays the host's", async () => {
    const policy = compilePolicy({
      rules: [{ rule: "Bash(git push:*)", behavior: "ask", origin: "test settings" }],
      cwd: "/tmp/toolgate-guard/project",
      homeDir: "/tmp/toolgate-guard/home",
    });
    const stateStore = createLruStateStore();
    const update = vi.spyOn(stateStore, "update");
    // the session says a person is there, the host's run says nobody answers (Codex under approval never)
    const session = createGuard({ policy, stateStore }).session("s", { interactive: true });
    const denied = await session.decide(bash("git push origin main", "t1"), { hostAsks: true, cannotAsk: true });
    expect(denied.decision).toMatchObject({ behavior: "deny", denialSource: "headless", rule: "Bash(git push:*)" });
    expect(denied.text).toContain("non-interactive");
    expect(update).toHaveBeenCalledTimes(1);
    expect((await session.state()).records.map((record) => record.source)).toEqual(["headless"]);
    // no rule asked: toolgate's defaults leave it to the host
    const left = await session.decide(bash("make build", "t2"), { hostAsks: true, cannotAsk: true });
    expect(left.decision.behavior).toBe("ask");
    expect(left.effects.some((effect) => effect.type === "record")).toBe(false);
    // a host that can ask keeps the rule's ask
    const asked = await session.decide(bash("git push origin main", "t3"), { hostAsks: true });
    expect(asked.decision.behavior).toBe("ask");
    expect(update).toHaveBeenCalledTimes(3);
  });

  it("earlierDenials: the host's unrecorded refusals are counted before the call, in its one state transaction", async () => {
    const { policy } = fakePolicy();
    const stateStore = createLruStateStore();
    const update = vi.spyOn(stateStore, "update");
    const delivered: number[] = [];
    const sink: AuditSink = { deliver: async (effects) => void delivered.push(effects.length) };
    const session = createGuard({ policy, stateStore, sinks: [sink] }).session("s", { interactive: false });
    const refused = { source: "rule" as const, reason: "Codex refused it", rule: "prefix_rule(...)" };
    const first = await session.decide(bash("rm -rf build", "t2"), {
      earlierDenials: [{ call: bash("rm -rf build", "t1"), options: refused }],
    });
    expect(update).toHaveBeenCalledTimes(1);
    expect(delivered).toHaveLength(1);
    const state = await session.state();
    expect(state.records.map((record) => record.toolUseId)).toEqual(["t1", "t2"]);
    // the call's decision saw the earlier refusal: the second denial of the pattern aborts the headless run
    expect(first.decision.behavior).toBe("deny");
    expect(first.effects.some((effect) => effect.type === "abort")).toBe(true);
    // the result is the call's own: no record of the earlier refusal, one decision
    expect(first.effects.filter((effect) => effect.type === "record")).toHaveLength(1);
    // a refusal already recorded is not counted again
    await session.decide(bash("ls", "t3"), {
      earlierDenials: [{ call: bash("rm -rf build", "t1"), options: refused }],
    });
    const after = (await session.state()).records.map((record) => record.toolUseId);
    expect(after.filter((id) => id === "t1")).toHaveLength(1);
    expect(update).toHaveBeenCalledTimes(2);
  });
});
