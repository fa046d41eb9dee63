import { beforeEach, describe, expect, it } from "vitest";
import { event, ofType, resetClock, run, testPorts } from "../../test/support/core-fixtures.js";
import { firstPromptLine, SESSION_INFO_MAX_CHARS, sessionInfoOf } from "./session-info.js";

beforeEach(() => resetClock());

const secret = `sk-${"a".repeat(30)}`;

describe("session info (issue 26 item 3)", () => {
  it.each([
    ["fix the build\nthen run the tests", "fix the build"],
    ["\n  \r\n   deploy it  \nnext", "deploy it"],
    ["one line", "one line"],
    ["  \n\t\n", undefined],
    ["", undefined],
  ])("the first non-blank line of %j is %j", (prompt, line) => {
    expect(firstPromptLine(prompt)).toBe(line);
  });

  it("redacts before it bounds: a secret is never stored, not even cut in half", () => {
    const prompt = `${"x".repeat(SESSION_INFO_MAX_CHARS - 10)} ${secret} tail\nsecond line`;
    const info = sessionInfoOf({ prompt, project: `/home/me/${secret}/app` }, testPorts.redactText);
    expect(JSON.stringify(info)).not.toContain("sk-a");
    expect(Array.from(info?.firstPrompt ?? "")).toHaveLength(SESSION_INFO_MAX_CHARS);
    expect(info?.firstPrompt?.endsWith("…")).toBe(true);
    expect(info?.project).toBe("/home/me/[REDACTED:openai]/app");
  });

  it("keeps the end of a long project path (its last segment is what a list shows) and one line of text", () => {
    const project = `/${"deep/".repeat(60)}my-app`;
    const info = sessionInfoOf({ project, prompt: "tab\there\u0007bell" }, (text) => text);
    expect(info?.project?.startsWith("…")).toBe(true);
    expect(info?.project?.endsWith("/my-app")).toBe(true);
    expect(Array.from(info?.project ?? "")).toHaveLength(SESSION_INFO_MAX_CHARS);
    expect(info?.firstPrompt).toBe("tab here bell");
  });

  it("is nothing for blank facts", () => {
    expect(sessionInfoOf({ project: "  ", prompt: "\n" }, (text) => text)).toBeUndefined();
    expect(sessionInfoOf({}, (text) => text)).toBeUndefined();
  });

  it("the reducer describes a session once: the first project and the first prompt win, redacted", () => {
    const { steps, state } = run([
      event("turn.started", { project: "/work/app" }),
      event("turn.started", { prompt: `first ${secret}\nmore`, project: "/elsewhere" }),
      event("turn.started", { prompt: "second prompt", project: "/again" }),
      event("turn.started", {}),
    ]);
    const infos = steps.map((effects) => ofType(effects, "audit").map((effect) => effect.event));
    expect(infos[0]).toEqual([expect.objectContaining({ kind: "session.info", detail: { project: "/work/app" } })]);
    expect(infos[1]).toEqual([
      expect.objectContaining({ kind: "session.info", turn: 2, detail: { firstPrompt: "first [REDACTED:openai]" } }),
    ]);
    expect(infos[2]).toEqual([]);
    expect(infos[3]).toEqual([]);
    expect(state.described).toEqual({ project: true, prompt: true });
  });

  it("a turn without a prompt or project emits nothing and marks nothing", () => {
    const { effects, state } = run([event("turn.started", {}), event("turn.started", { prompt: "  " })]);
    expect(ofType(effects, "audit")).toEqual([]);
    expect(state.described).toBeUndefined();
  });
});
