import { describe, expect, test } from "vitest";
import { fixtureEvents, loadFixture } from "../../../test/e2e/opencode/replay-fixture.js";
import { isRealUserMessage, opencodeSignal } from "./opencode-signal.js";

/** Every event here was recorded from the real opencode 1.18.33 (test/fixtures/opencode/). */
function signals(name: string) {
  return fixtureEvents(name)
    .map(opencodeSignal)
    .filter((signal) => signal !== undefined);
}

describe("opencodeSignal on recorded events", () => {
  test("a deny rule: one tool-error per denied call, nothing from status churn or completed calls", () => {
    const found = signals("deny-rule");
    expect(found.map((signal) => signal.kind)).toEqual(["session-created", "tool-error", "tool-error", "session-idle"]);
    const errors = found.filter((signal) => signal.kind === "tool-error");
    expect(errors.map((signal) => signal.callId)).toEqual(["call_2_0", "call_3_0"]);
    expect(errors[0]).toMatchObject({ tool: "bash", input: { command: "rm -rf victim" } });
    expect(errors[0]?.kind === "tool-error" && errors[0].error).toMatch(/^The user has specified a rule/);
  });

  test("busy/idle status events are never signals", () => {
    const statuses = fixtureEvents("deny-rule").filter((event) => event.type === "session.status");
    expect(statuses.length).toBeGreaterThan(5);
    expect(statuses.map(opencodeSignal)).toEqual(statuses.map(() => undefined));
  });

  test("an ask then a headless reject: permission.asked (v2) links the call, permission.replied carries reply", () => {
    const found = signals("ask-reject");
    const asked = found.find((signal) => signal.kind === "permission-asked");
    expect(asked).toMatchObject({
      permission: "bash",
      patterns: ["rm -rf victim"],
      always: ["rm *"],
      callId: "call_2_0",
    });
    const replied = found.find((signal) => signal.kind === "permission-replied");
    expect(replied).toMatchObject({ reply: "reject" });
    expect(replied?.kind === "permission-replied" && asked?.kind === "permission-asked" && replied.requestId).toBe(
      asked?.kind === "permission-asked" ? asked.requestId : "",
    );
  });

  test("the v1 shapes (permission.updated, permissionID + response) translate to the same signals", () => {
    const events = fixtureEvents("ask-reject");
    const asked = events.find((event) => event.type === "permission.asked") as { properties: Record<string, unknown> };
    const replied = events.find((event) => event.type === "permission.replied") as {
      properties: Record<string, unknown>;
    };
    const tool = asked.properties.tool as { messageID: string; callID: string };
    // v1 per @opencode-ai/sdk types: Permission { id, type, pattern, sessionID, messageID, callID, title, metadata }
    const v1Asked = {
      type: "permission.updated",
      properties: {
        id: asked.properties.id,
        type: asked.properties.permission,
        pattern: asked.properties.patterns,
        sessionID: asked.properties.sessionID,
        messageID: tool.messageID,
        callID: tool.callID,
        title: "bash",
        metadata: asked.properties.metadata,
      },
    };
    const v1Replied = {
      type: "permission.replied",
      properties: {
        sessionID: replied.properties.sessionID,
        permissionID: replied.properties.requestID,
        response: replied.properties.reply,
      },
    };
    expect(opencodeSignal(v1Asked)).toMatchObject({ kind: "permission-asked", callId: "call_2_0", permission: "bash" });
    expect(opencodeSignal(v1Replied)).toEqual(opencodeSignal(replied));
  });

  test("isRealUserMessage: the user's prompt is real, a synthetic noReply note is not", () => {
    const messages = loadFixture("deny-rule-note").entries.filter((entry) => entry.kind === "hook:chat.message");
    expect(messages).toHaveLength(2);
    const verdicts = messages.map((entry) => isRealUserMessage(entry.data.output as { parts?: unknown }));
    expect(verdicts).toEqual([true, false]);
  });
});
