import { describe, expect, test } from "vitest";
import { type FixtureEntry, loadFixture, replayFixture } from "../../../test/e2e/opencode/replay-fixture.js";

/** Replays runs recorded from the real opencode 1.18.33 through the tracker and a real in-memory guard. */
const NUDGE = "Several tool calls have been denied";

function entries(name: string): FixtureEntry[] {
  return loadFixture(name).entries;
}

/** The opencode session id of a recorded run (from its `session.created` event). */
function sessionOf(name: string): string {
  const created = entries(name).find((entry) => entry.kind === "event:session.created");
  const properties = created?.data.properties as { sessionID?: unknown } | undefined;
  if (typeof properties?.sessionID !== "string") throw new Error(`${name} has no session.created event`);
  return properties.sessionID;
}

/** The fixture with its second denial removed (everything about call `callId` dropped). */
function without(list: readonly FixtureEntry[], callId: string): FixtureEntry[] {
  return list.filter((entry) => !JSON.stringify(entry.data).includes(`"${callId}"`));
}

describe("OpencodeTracker replaying recorded runs", () => {
  test("two identical rule-denied calls: one nudge; headless, the second reaches bash's threshold and aborts", async () => {
    const replay = await replayFixture(entries("deny-rule"));
    expect(replay.notes).toHaveLength(1);
    expect(replay.notes[0]?.text).toContain(NUDGE);
    const sessionId = replay.notes[0]?.sessionId ?? "";
    const state = await replay.guard.session(sessionId, { interactive: false }).state();
    expect(state.records.slice(0, 2).map((record) => [record.toolUseId, record.source])).toEqual([
      ["call_2_0", "rule"],
      ["call_3_0", "rule"],
    ]);
    // the abort stops the session and names the way out; the next call is blocked in tool.execute.before
    expect(replay.stops).toEqual([sessionId]);
    expect(replay.lines.join("\n")).toContain("toolgate aborted the run: bash was denied 2 times");
    expect(replay.thrown.map((thrown) => thrown.callId)).toEqual(["call_4_0"]);
  });

  test("a single denial does not nudge", async () => {
    const replay = await replayFixture(without(entries("deny-rule"), "call_3_0"));
    expect(replay.notes).toEqual([]);
  });

  test("escalating guidance is kept per denied call for the messages transform", async () => {
    const replay = await replayFixture(entries("deny-rule"));
    const first = replay.tracker.guidanceFor("call_2_0");
    const second = replay.tracker.guidanceFor("call_3_0");
    expect(first).toContain("[toolgate] Denied by rule bash");
    expect(second).toBeDefined();
    expect(second).not.toEqual(first);
    // a call after the abort is told the abort again, in the same words
    expect(replay.tracker.guidanceFor("call_4_0")).toContain("The run is being stopped");
  });

  test("a real user message between two denials resets the streak (no nudge)", async () => {
    const list = entries("deny-rule");
    const secondDenial = list.findIndex((entry) => JSON.stringify(entry.data).includes('"call_3_0"'));
    const userMessage = list.find((entry) => entry.kind === "hook:chat.message");
    if (userMessage === undefined) throw new Error("fixture has no chat.message");
    const replay = await replayFixture([...list.slice(0, secondDenial), userMessage, ...list.slice(secondDenial)]);
    expect(replay.notes).toEqual([]);
  });

  test("toolgate's own noReply note is not a user message: it does not reset the streak", async () => {
    // deny-rule-note: the probe sent a synthetic note after the first denial; chat.message fired for it
    const replay = await replayFixture(entries("deny-rule-note"));
    expect(replay.notes).toHaveLength(1);
  });

  test("ask rejected headless: counted once (permission.replied, not again for the errored part), one stderr line", async () => {
    const replay = await replayFixture(entries("ask-reject"));
    const sessionId = sessionOf("ask-reject");
    const state = await replay.guard.session(sessionId, { interactive: false }).state();
    expect(state.records.map((record) => [record.toolUseId, record.source])).toEqual([["call_2_0", "headless"]]);
    expect(replay.lines).toHaveLength(1);
    expect(replay.lines[0]).toContain('auto-rejected bash "rm -rf victim" (pattern "rm *")');
    expect(replay.lines[0]).toContain('"permission": { "bash": { "rm *": "allow" } }');
  });

  test("a reject that rejects the other pending ask counts each call once", async () => {
    const replay = await replayFixture(entries("ask-reject-parallel"));
    const sessionId = sessionOf("ask-reject-parallel");
    const state = await replay.guard.session(sessionId, { interactive: false }).state();
    expect(state.records.map((record) => record.toolUseId)).toEqual(["call_2_0", "call_2_1"]);
  });

  test("interactive: a reject is the user's denial and nothing claims the host stopped the run", async () => {
    const replay = await replayFixture(entries("ask-reject"), { interactive: true });
    const sessionId = sessionOf("ask-reject");
    const state = await replay.guard.session(sessionId, { interactive: true }).state();
    expect(state.records.map((record) => record.source)).toEqual(["user"]);
    expect(replay.lines).toEqual([]);
  });

  test("a completed bash call with exit 1 (grep without a match) is not a denial", async () => {
    const replay = await replayFixture(entries("os-errors"));
    const sessionId = sessionOf("os-errors");
    const state = await replay.guard.session(sessionId, { interactive: false }).state();
    expect(state.records.filter((record) => record.toolUseId === "call_3_0")).toEqual([]);
  });
});

describe("seed plugin defects (opencode-nudge) as regression tests", () => {
  test('defect 1: `response === "deny"` never matched; a `reject` reply (v2 `reply`) is counted', async () => {
    const replay = await replayFixture(without(entries("ask-reject"), "call_2_0").concat());
    // without the errored part, only permission.asked/replied remain for the call: the reply alone must count
    const list = entries("ask-reject").filter(
      (entry) => !(entry.kind === "event:message.part.updated" && JSON.stringify(entry.data).includes('"error"')),
    );
    const onlyReply = await replayFixture(list);
    const sessionId = sessionOf("ask-reject");
    expect((await onlyReply.guard.session(sessionId, { interactive: false }).state()).records).toHaveLength(1);
    expect(replay.notes).toEqual([]);
  });

  test("defect 2: tool.execute.after never runs for denied calls, and denials are still counted", async () => {
    const list = entries("deny-rule");
    const afterCalls = list.filter((entry) => entry.kind === "hook:tool.execute.after").map((entry) => entry.data);
    expect(JSON.stringify(afterCalls)).not.toContain("call_2_0");
    const replay = await replayFixture(list.filter((entry) => entry.kind !== "hook:tool.execute.after"));
    expect(replay.notes).toHaveLength(1);
  });

  test("defect 3: busy status (sent many times per turn) does not reset the streak", async () => {
    const list = entries("deny-rule");
    const busy = list.filter(
      (entry) => entry.kind === "event:session.status" && JSON.stringify(entry.data).includes('"busy"'),
    );
    expect(busy.length).toBeGreaterThan(3);
    const secondDenial = list.findIndex((entry) => JSON.stringify(entry.data).includes('"call_3_0"'));
    const churn = [...busy, ...busy];
    const replay = await replayFixture([...list.slice(0, secondDenial), ...churn, ...list.slice(secondDenial)]);
    expect(replay.notes).toHaveLength(1);
  });
});

describe("OS-level failures in successful tool output (recorded bash runs)", () => {
  test("EACCES from bash counts as a sandbox denial; grep's exit 1 does not", async () => {
    const replay = await replayFixture(entries("os-errors"));
    const sessionId = sessionOf("os-errors");
    const state = await replay.guard.session(sessionId, { interactive: false }).state();
    expect(state.records.map((record) => [record.toolUseId, record.source])).toEqual([["call_2_0", "sandbox"]]);
    expect(state.nudge.count).toBe(1);
  });
});
