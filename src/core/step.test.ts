import { beforeEach, describe, expect, it } from "vitest";
import {
  bash,
  denied,
  event,
  ofType,
  resetClock,
  run,
  testConfig,
  toolCall,
} from "../../test/support/core-fixtures.js";
import { initialState } from "./initial-state.js";
import { MAIN_AGENT } from "./state.js";

beforeEach(() => resetClock());

describe("counting", () => {
  it("counts per tool, per pattern and per session, consecutive and total", () => {
    const { state } = run([
      denied(bash("rm -rf a")),
      denied(bash("rm -rf b")),
      denied(toolCall("Write", { file_path: "/x" })),
    ]);
    const agent = state.agents[MAIN_AGENT]!;
    expect(state.total).toBe(3);
    expect(agent.total).toBe(3);
    expect(agent.consecutive).toBe(3);
    expect(agent.tools["Bash"]).toMatchObject({ consecutive: 2, total: 2, turnTotal: 2 });
    expect(agent.tools["Write"]).toMatchObject({ consecutive: 1, total: 1 });
    expect(agent.patterns["Bash rm"]).toMatchObject({ streak: 2, total: 2 });
  });

  it.each(["rule", "user", "hook", "headless", "mode", "classifier", "sandbox", "validation"] as const)(
    "counts a denial from source %s and records it once",
    (source) => {
      const { state, effects } = run([denied(bash("rm x"), source)]);
      expect(state.total).toBe(1);
      expect(ofType(effects, "record")).toHaveLength(1);
      expect(ofType(effects, "record")[0]!.record.source).toBe(source);
    },
  );

  it("an allowed call of a tool resets that tool's streak but not its totals (seed: on_allow -> counts.delete(tool))", () => {
    const { state, effects } = run(
      [
        denied(bash("rm a"), "user"),
        denied(bash("rm a"), "user"),
        event("call.allowed", { call: bash("ls") }),
        denied(bash("rm a"), "user"),
        denied(bash("rm a"), "user"),
      ],
      { config: testConfig({ thresholds: [{ tool: "Bash", threshold: 3 }] }) },
    );
    const bashCounters = state.agents[MAIN_AGENT]!.tools["Bash"]!;
    expect(bashCounters.consecutive).toBe(2);
    expect(bashCounters.total).toBe(4);
    expect(state.agents[MAIN_AGENT]!.patterns["Bash rm"]!.streak).toBe(2);
    expect(ofType(effects, "abort")).toHaveLength(0);
  });

  it("a success resets the streak too; a failure that is not a denial does not", () => {
    const a = run([denied(bash("rm a")), event("call.succeeded", { call: bash("ls") }), denied(bash("rm a"))]);
    expect(a.state.agents[MAIN_AGENT]!.patterns["Bash rm"]!.streak).toBe(1);
    const b = run([
      denied(bash("rm a")),
      event("call.failed", { call: bash("ls"), error: "exit 1" }),
      denied(bash("rm a")),
    ]);
    expect(b.state.agents[MAIN_AGENT]!.patterns["Bash rm"]!.streak).toBe(2);
  });

  it("a turn.started (real user message) resets per-turn and consecutive counters and keeps session totals", () => {
    const { state } = run([
      denied(bash("rm a")),
      denied(bash("rm b")),
      event("turn.started", {}),
      denied(bash("rm c")),
    ]);
    const agent = state.agents[MAIN_AGENT]!;
    expect(state.turn).toBe(1);
    expect(agent.total).toBe(3);
    expect(agent.turnTotal).toBe(1);
    expect(agent.consecutive).toBe(1);
    expect(agent.tools["Bash"]).toMatchObject({ total: 3, turnTotal: 1, consecutive: 1 });
    expect(agent.patterns["Bash rm"]).toMatchObject({ total: 3, streak: 1 });
  });

  it("five denied rm calls do not make a denied ls look like a repeat (Qwen's tool-name pitfall)", () => {
    const config = testConfig({ defaultThreshold: 3, thresholds: [{ tool: "Bash", threshold: 3 }] });
    const rms = Array.from({ length: 5 }, () => denied(bash("rm -rf build"), "user"));
    const { steps } = run([...rms, denied(bash("ls secret"), "user")], { config, interactive: true });
    const last = ofType(steps.at(-1)!, "guidance")[0]!;
    expect(last.stage).toBe("soft");
    expect(last.text).toContain("ls secret");
    expect(last.text).toContain("Bash denials this session: 6");
    expect(ofType(steps.at(-1)!, "offer-grant")).toHaveLength(0);
  });

  it("records carry the redacted input, summary, signature, pattern, turn and source", () => {
    const { effects } = run([denied(bash("curl -H 'Authorization: sk-abcdefghijkl' x"), "rule")]);
    const { record } = ofType(effects, "record")[0]!;
    expect(JSON.stringify(record)).not.toContain("sk-abcdefghijkl");
    expect(record).toMatchObject({ seq: 1, sessionId: "s1", turn: 0, tool: "Bash", source: "rule", pattern: "curl" });
    expect(record).toMatchObject({ canonicalTool: "shell", toolFamily: "shell" });
    expect(record.signature).toMatch(/^Bash:[0-9a-f]{14}$/);
    expect(record.timestamp).toBe(new Date(record.at).toISOString());
  });
});

describe("escalation ladder", () => {
  it("threshold 3 escalates: interactive user denials offer a grant at the third (seed)", () => {
    const config = testConfig({ thresholds: [{ tool: "Bash", threshold: 3 }] });
    const { steps } = run(
      [denied(bash("npm publish"), "user"), denied(bash("npm publish"), "user"), denied(bash("npm publish"), "user")],
      { config, interactive: true },
    );
    expect(ofType(steps[1]!, "offer-grant")).toHaveLength(0);
    const offers = ofType(steps[2]!, "offer-grant");
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ tool: "Bash", count: 3, scope: { kind: "exact", rule: "Bash(npm publish)" } });
    expect(offers[0]!.question).toContain("Allow");
  });

  it("soft text below the threshold, escalated at it, hard at 2x (Qwen: soft at 2, hard at 4)", () => {
    const config = testConfig({ thresholds: [{ tool: "Bash", threshold: 2, headlessStrategy: "fallback" }] });
    const { steps } = run(
      Array.from({ length: 5 }, () => denied(bash("rm -rf /"), "headless")),
      { config },
    );
    const stages = steps.map((effects) => ofType(effects, "guidance")[0]!.stage);
    expect(stages).toEqual(["soft", "escalated", "escalated", "hard", "hard"]);
    const hard = ofType(steps[3]!, "guidance")[0]!.text;
    expect(hard).toContain("STOP");
    expect(hard).toContain('"rm"');
    expect(hard.length).toBeLessThan(140);
  });

  it("default thresholds: shell-like tools 2, read-like 5, others 3", () => {
    const thresholdOf = (tool: string) => {
      const { steps } = run(
        Array.from({ length: 6 }, () => denied(toolCall(tool, { file_path: "/etc/x" }), "headless")),
        { config: testConfig({ headlessStrategy: "skip" }) },
      );
      return steps.findIndex((effects) => ofType(effects, "skip").length > 0) + 1;
    };
    expect(thresholdOf("Bash")).toBe(2);
    expect(thresholdOf("bash")).toBe(2);
    expect(thresholdOf("Read")).toBe(5);
    expect(thresholdOf("Write")).toBe(3);
    expect(thresholdOf("mcp__github__create_issue")).toBe(3);
  });

  it("an explicit deny rule is never escalated into a grant offer", () => {
    const { effects } = run(
      Array.from({ length: 6 }, () => denied(bash("rm -rf /"), "rule")),
      { interactive: true },
    );
    expect(ofType(effects, "offer-grant")).toHaveLength(0);
    expect(ofType(effects, "guidance").some((effect) => effect.text.includes("by rule"))).toBe(true);
  });

  it("a streak mixing a rule denial and user denials is not grantable", () => {
    const { effects } = run(
      [denied(bash("rm a"), "rule"), denied(bash("rm a"), "user"), denied(bash("rm a"), "user")],
      {
        interactive: true,
      },
    );
    expect(ofType(effects, "offer-grant")).toHaveLength(0);
  });

  it("headless abort names the tool, the count, the denied call and what would allow it", () => {
    const { steps, state } = run([denied(bash("npm publish"), "headless"), denied(bash("npm publish"), "headless")]);
    const abort = ofType(steps[1]!, "abort")[0]!;
    expect(abort.reason).toBe("denials");
    expect(abort.error).toContain("Bash");
    expect(abort.error).toContain("2 times");
    expect(abort.error).toContain("npm publish");
    expect(abort.error).toContain("Bash(npm publish)");
    expect(state.aborted).toMatchObject({ tool: "Bash", reason: "denials" });
  });

  it("a rule-denied abort tells the user to change the rule", () => {
    const { effects } = run([denied(bash("rm -rf x")), denied(bash("rm -rf x"))]);
    expect(ofType(effects, "abort")[0]!.error).toContain("deny rule Bash(rm *)");
  });

  it("headless fallback names the configured alternatives; skip tells the model to skip", () => {
    const fallback = run([denied(bash("docker ps"), "headless"), denied(bash("docker ps"), "headless")], {
      config: testConfig({ headlessStrategy: "fallback", alternatives: { Bash: ["Read", "Grep"] } }),
    });
    expect(ofType(fallback.effects, "fallback")[0]!.text).toContain("Allowed alternatives: Read, Grep");
    const skip = run([denied(bash("docker ps"), "headless"), denied(bash("docker ps"), "headless")], {
      config: testConfig({ headlessStrategy: "skip" }),
    });
    expect(ofType(skip.effects, "skip")[0]!.text).toContain("Skip this step");
  });

  it("guidance wording differs by source and names the way out", () => {
    const texts = (["rule", "user", "headless", "sandbox"] as const).map(
      (source) => ofType(run([denied(bash("rm x"), source)]).effects, "guidance")[0]!.text,
    );
    expect(texts[0]).toContain("ask the user to change the rule");
    expect(texts[1]).toContain("The user declined");
    expect(texts[2]).toContain("non-interactive");
    expect(texts[2]).toContain("Bash(rm x)");
    expect(texts[3]).toContain("sandbox");
    expect(new Set(texts).size).toBe(4);
  });

  it("templates are replaceable", () => {
    const config = testConfig({ templates: { "soft.rule": "nope: {summary} x{total}" } });
    const { effects } = run([denied(bash("rm y"))], { config });
    expect(ofType(effects, "guidance")[0]!.text).toBe("nope: rm y x1");
  });
});

describe("grants", () => {
  function offered() {
    return run([denied(bash("git push"), "user"), denied(bash("git push"), "user")], { interactive: true });
  }

  it("an accepted grant is recorded for the session and resets the tool's counters", () => {
    const first = offered();
    const offer = ofType(first.effects, "offer-grant")[0]!;
    const { state, effects } = run(
      [event("grant.answered", { offerId: offer.offerId, accepted: true, answeredBy: "me" })],
      {
        state: first.state,
      },
    );
    expect(state.grants).toHaveLength(1);
    expect(state.grants[0]).toMatchObject({ scope: { rule: "Bash(git push)" }, answeredBy: "me", pattern: "git" });
    expect(state.agents[MAIN_AGENT]!.tools["Bash"]).toMatchObject({ consecutive: 0, total: 2 });
    expect(state.agents[MAIN_AGENT]!.patterns["Bash git"]!.streak).toBe(0);
    expect(state.offers).toEqual({});
    expect(ofType(effects, "audit").map((effect) => effect.event.kind)).toContain("grant.recorded");
  });

  it("a declined grant falls back and is not offered again for that pattern", () => {
    const first = offered();
    const offer = ofType(first.effects, "offer-grant")[0]!;
    const { state, effects } = run(
      [
        event("grant.answered", { offerId: offer.offerId, accepted: false }),
        denied(bash("git push"), "user"),
        denied(bash("git push"), "user"),
      ],
      { state: first.state },
    );
    expect(state.grants).toHaveLength(0);
    expect(ofType(effects, "fallback")[0]!.text).toContain("declined");
    expect(ofType(effects, "offer-grant")).toHaveLength(0);
  });

  it("an answer to an unknown offer grants nothing", () => {
    const { state, effects } = run([event("grant.answered", { offerId: "offer-99", accepted: true })], {
      interactive: true,
    });
    expect(state.grants).toHaveLength(0);
    expect(ofType(effects, "warning")[0]!.code).toBe("GRANT_OFFER_UNKNOWN");
  });

  it("a grant can be revoked", () => {
    const first = offered();
    const offer = ofType(first.effects, "offer-grant")[0]!;
    const granted = run([event("grant.answered", { offerId: offer.offerId, accepted: true })], { state: first.state });
    const grantId = granted.state.grants[0]!.id;
    const { state } = run([event("grant.revoked", { grantId })], { state: granted.state });
    expect(state.grants).toHaveLength(0);
  });

  it("covers a pattern, not the whole tool, unless configured", () => {
    const varied = run([denied(bash("git push a"), "user"), denied(bash("git push b"), "user")], { interactive: true });
    expect(ofType(varied.effects, "offer-grant")[0]!.scope).toMatchObject({ kind: "prefix", rule: "Bash(git *)" });
    const whole = run([denied(bash("git push a"), "user"), denied(bash("git push b"), "user")], {
      interactive: true,
      config: testConfig({ grantWholeTool: true }),
    });
    expect(ofType(whole.effects, "offer-grant")[0]!.scope).toMatchObject({ kind: "tool", rule: "Bash" });
  });
});

describe("records, flushes and summaries", () => {
  it("keeps a bounded buffer with a monotonic total (capacity 3, record 5)", () => {
    const { state } = run(
      Array.from({ length: 5 }, (_, index) => denied(bash(`rm ${index}`))),
      {
        config: testConfig({ recordBufferSize: 3, headlessStrategy: "fallback" }),
      },
    );
    expect(state.total).toBe(5);
    expect(state.records.map((record) => record.seq)).toEqual([3, 4, 5]);
  });

  it("flushes the turn's denials once per turn using the high-water mark; an empty turn flushes nothing", () => {
    const { steps } = run(
      [
        event("turn.started", {}),
        denied(bash("rm a"), "rule"),
        denied(toolCall("Write", { file_path: "/a" }), "rule"),
        event("turn.ended", {}),
        event("turn.started", {}),
        event("turn.ended", {}),
      ],
      { config: testConfig({ headlessStrategy: "fallback" }) },
    );
    const flushes = steps.map((effects) => ofType(effects, "flush"));
    expect(flushes[3]).toHaveLength(1);
    expect(flushes[3]![0]!.records.map((record) => record.tool)).toEqual(["Bash", "Write"]);
    expect(flushes[5]).toHaveLength(0);
  });

  it.each([
    ["error", "turn-error"],
    ["cancelled", "turn-cancelled"],
  ] as const)("flushes when a turn ends with %s (agent-code loses these)", (outcome, reason) => {
    const { steps } = run([denied(bash("rm a")), event("turn.ended", { outcome })]);
    expect(ofType(steps[1]!, "flush")[0]).toMatchObject({ reason, records: [{ tool: "Bash" }] });
  });

  it("flushes on session end and summarises counts (permissionDenialCount, permissionDeniedTools)", () => {
    const { steps } = run([
      denied(bash("rm a"), "user"),
      denied(toolCall("Read", { file_path: "/etc/shadow" }), "rule"),
      event("session.ended", {}),
    ]);
    const last = steps[2]!;
    expect(ofType(last, "flush")[0]!.reason).toBe("session-ended");
    const summary = ofType(last, "audit").find((effect) => effect.event.kind === "session.summary")!;
    expect(summary.event.detail).toMatchObject({
      permissionDenialCount: 2,
      permissionDeniedTools: { Bash: 1, Read: 1 },
    });
  });

  it("a session with no denials still summarises a zero count", () => {
    const { effects } = run([event("session.ended", {})]);
    const summary = ofType(effects, "audit").find((effect) => effect.event.kind === "session.summary")!;
    expect(summary.event.detail).toMatchObject({ permissionDenialCount: 0, permissionDeniedTools: {} });
  });

  it("reports records evicted before a flush as lost", () => {
    const { steps } = run(
      [...Array.from({ length: 4 }, (_, index) => denied(bash(`rm ${index}`))), event("turn.ended", {})],
      {
        config: testConfig({ recordBufferSize: 2, headlessStrategy: "fallback" }),
      },
    );
    expect(ofType(steps[4]!, "flush")[0]).toMatchObject({ lost: 2, highWaterMark: 4 });
  });
});

describe("nudges", () => {
  it("no nudge on one denial; one nudge at the threshold (2); counter restarts after", () => {
    const config = testConfig({ headlessStrategy: "fallback" });
    const { steps } = run([denied(bash("cat /a")), denied(bash("ls /b")), denied(bash("ls /c"))], { config });
    expect(ofType(steps[0]!, "nudge")).toHaveLength(0);
    expect(ofType(steps[1]!, "nudge")).toHaveLength(1);
    expect(ofType(steps[2]!, "nudge")).toHaveLength(0);
  });

  it("the nudge text is the sandbox-awareness text when an OS-permission failure is in the streak", () => {
    const { effects } = run([
      event("call.failed", {
        call: bash("cat /root/x"),
        error: "cat: /root/x: Permission denied",
        osDenial: { kind: "os-permission", evidence: "Permission denied", path: "/root/x" },
      }),
      event("call.failed", {
        call: bash("cat /root/y"),
        error: "cat: /root/y: Permission denied",
        osDenial: { kind: "os-permission", evidence: "Permission denied", path: "/root/y" },
      }),
    ]);
    const nudge = ofType(effects, "nudge")[0]!;
    expect(nudge.reason).toBe("os-permission");
    expect(nudge.text).toContain("sandboxed environment");
    expect(ofType(effects, "record").map((effect) => effect.record.source)).toEqual(["sandbox", "sandbox"]);
  });

  it("a real user message resets the streak; a success resets it", () => {
    const config = testConfig({ headlessStrategy: "fallback" });
    const a = run([denied(bash("rm a")), event("turn.started", {}), denied(bash("rm b"))], { config });
    expect(ofType(a.effects, "nudge")).toHaveLength(0);
    const b = run([denied(bash("rm a")), event("call.succeeded", { call: bash("ls") }), denied(bash("rm b"))], {
      config,
    });
    expect(ofType(b.effects, "nudge")).toHaveLength(0);
  });

  it("respects the cooldown (from event time) and the hourly cap", () => {
    const config = testConfig({
      headlessStrategy: "fallback",
      nudge: { threshold: 1, cooldownMs: 60_000, hourlyCap: 2 },
    });
    const at = (minutes: number) => 1_700_000_000_000 + minutes * 60_000;
    const { steps } = run(
      [0, 0.5, 2, 4, 6].map((minutes) => ({ ...denied(bash(`rm ${minutes}`)), at: at(minutes) })),
      { config },
    );
    expect(steps.map((effects) => ofType(effects, "nudge").length)).toEqual([1, 0, 1, 0, 0]);
  });

  it("emits config warnings (e.g. a non-numeric env threshold) once per session", () => {
    const config = testConfig({}, [{ code: "ENV_NOT_A_NUMBER", message: "TOOLGATE_NUDGE_THRESHOLD=abc ignored" }]);
    const { steps } = run([denied(bash("rm a")), denied(bash("rm b"))], { config });
    expect(ofType(steps[0]!, "warning")).toHaveLength(1);
    expect(ofType(steps[1]!, "warning")).toHaveLength(0);
  });
});

describe("subagents", () => {
  it("a subagent has its own counters; records carry agent and parent session; the session total spans both", () => {
    const state = initialState({ sessionId: "s1", interactive: false, parentSessionId: "root" });
    const { state: after, effects } = run(
      [
        event("subagent.started", { agentId: "a1" }),
        denied(bash("rm a"), "rule", { agentId: "a1" } as never),
        denied(bash("rm a"), "rule"),
      ],
      { state, config: testConfig({ headlessStrategy: "fallback" }) },
    );
    expect(after.agents["a1"]!.tools["Bash"]!.consecutive).toBe(1);
    expect(after.agents[MAIN_AGENT]!.tools["Bash"]!.consecutive).toBe(1);
    expect(after.total).toBe(2);
    const records = ofType(effects, "record").map((effect) => effect.record);
    expect(records[0]).toMatchObject({ agentId: "a1", parentSessionId: "root" });
    expect(records[1]!.agentId).toBeUndefined();
  });

  it("a session-tree budget caps denials across the session and its subagents", () => {
    const config = testConfig({ sessionTreeBudget: 3, headlessStrategy: "fallback", defaultThreshold: 10 });
    const { steps } = run(
      [
        denied(toolCall("Write", { file_path: "/a" }), "rule", { agentId: "a1" } as never),
        denied(toolCall("Write", { file_path: "/b" }), "rule", { agentId: "a2" } as never),
        denied(toolCall("Write", { file_path: "/c" }), "rule"),
      ],
      { config },
    );
    expect(ofType(steps[1]!, "abort")).toHaveLength(0);
    expect(ofType(steps[2]!, "abort")[0]).toMatchObject({ reason: "tree-budget" });
  });

  it("a subagent stop flushes its records", () => {
    const { steps } = run([
      denied(bash("rm a"), "rule", { agentId: "a1" } as never),
      event("subagent.stopped", { agentId: "a1" }),
    ]);
    expect(ofType(steps[1]!, "flush")[0]!.records[0]!.agentId).toBe("a1");
  });
});

describe("peer conformance (peers.md 2.4, 5.7)", () => {
  it("a pattern denied 20 times escalates even when allowed calls broke every streak (Claude/Qwen total cap)", () => {
    const config = testConfig({ thresholds: [{ tool: "Bash", threshold: 3, headlessStrategy: "abort" }] });
    const events = [];
    for (let index = 0; index < 20; index++) {
      events.push(denied(bash("rm -rf build"), "headless"));
      events.push(event("call.allowed", { call: bash("ls") }));
    }
    const { steps } = run(events, { config });
    const aborts = steps.map((effects) => ofType(effects, "abort").length);
    expect(aborts.slice(0, 38).every((count) => count === 0)).toBe(true);
    expect(ofType(steps[38]!, "abort")[0]!.error).toContain("20 times");
  });

  it("the same call that failed the same way three times is blocked when retried unchanged (Goose)", () => {
    const call = bash("npm run build");
    const fail = () => event("call.failed", { call, error: "error TS2304: Cannot find name 'x'." });
    const { steps } = run([
      fail(),
      fail(),
      fail(),
      event("call.requested", { call }),
      event("call.requested", { call: bash("npm run build -- --verbose") }),
    ]);
    expect(ofType(steps[3]!, "block")[0]).toMatchObject({ reason: "loop" });
    expect(ofType(steps[3]!, "block")[0]!.text).toContain("same-error");
    expect(ofType(steps[4]!, "block")).toHaveLength(0);
  });

  it("a success between the failures clears the same-error block", () => {
    const call = bash("make");
    const fail = () => event("call.failed", { call, error: "boom" });
    const { steps } = run([
      fail(),
      fail(),
      event("call.succeeded", { call }),
      fail(),
      event("call.requested", { call }),
    ]);
    expect(ofType(steps[4]!, "block")).toHaveLength(0);
  });
});

describe("record size", () => {
  it("cuts long strings in a record's input so the state buffer stays small", () => {
    const content = "x".repeat(200_000);
    const { effects, state } = run([denied(toolCall("Write", { file_path: "/a.txt", content }))]);
    const { record } = ofType(effects, "record")[0]!;
    const kept = (record.input as { content: string }).content;
    expect(kept.length).toBeLessThan(2100);
    expect(kept).toContain("more characters]");
    expect(JSON.stringify(state).length).toBeLessThan(10_000);
  });
});

describe("record inputs", () => {
  it("each record keeps the bounded copy of its own call's redacted input, also when one redacted input is denied again", () => {
    const long = "x".repeat(5000);
    const facts = (redactedInput: unknown) => ({ signature: "sig", pattern: "cat", summary: "cat", redactedInput });
    const shared = { command: `cat ${long}` };
    const other = { command: `cat ${long}y` };
    const { effects } = run([
      denied({ ...bash("cat"), ...facts(shared) }),
      denied({ ...bash("cat"), ...facts(other) }),
      denied({ ...bash("cat"), ...facts(shared) }),
      denied({ ...bash("cat"), ...facts({ command: "cat short" }) }),
    ]);
    const inputs = ofType(effects, "record").map(({ record }) => (record.input as { command: string }).command);
    expect(inputs).toEqual([
      `cat ${"x".repeat(1996)}…[3004 more characters]`,
      `cat ${"x".repeat(1996)}…[3005 more characters]`,
      `cat ${"x".repeat(1996)}…[3004 more characters]`,
      "cat short",
    ]);
  });
});
