import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { HookHost } from "../hosts/common/hook-host.js";
import { startHook } from "./run-hook.js";
import { labelsFromEnv } from "./session-labels.js";

describe("TOOLGATE_LABELS (issue 26: the label filter offers the labels people set)", () => {
  it("reads key=value pairs and leaves out what is not one", () => {
    expect(labelsFromEnv({ TOOLGATE_LABELS: "workflow=ci, repo=web-app" })).toEqual({
      workflow: "ci",
      repo: "web-app",
    });
    expect(labelsFromEnv({ TOOLGATE_LABELS: "team=a=b,bad key=x,novalue=,plain,team=again" })).toEqual({
      team: "a=b",
    });
    expect(labelsFromEnv({ TOOLGATE_LABELS: "" })).toBeUndefined();
    expect(labelsFromEnv({ TOOLGATE_LABELS: ",,," })).toBeUndefined();
    expect(labelsFromEnv({})).toBeUndefined();
    const many = Array.from({ length: 20 }, (_, index) => `k${index}=v`).join(",");
    expect(Object.keys(labelsFromEnv({ TOOLGATE_LABELS: many }) ?? {})).toHaveLength(16);
  });

  it("a hook's new session carries them", async () => {
    const root = mkdtempSync(join(tmpdir(), "toolgate-labels-"));
    try {
      mkdirSync(join(root, "home"));
      let labels: Record<string, string> | undefined;
      const host: HookHost<{ session_id: string }> = {
        name: "test-host",
        parse: (text) => JSON.parse(text) as { session_id: string },
        eventName: () => "PreToolUse",
        sessionId: (input) => input.session_id,
        projectDir: () => root,
        interactive: () => false,
        handle: async (_input, { session }) => {
          labels = (await session.state()).labels;
          return { exitCode: 0 };
        },
        failClosed: ({ reason }) => ({ exitCode: 2, stderr: reason }),
      };
      const started = await startHook(host, {
        stdinText: JSON.stringify({ session_id: "labelled" }),
        env: { HOME: join(root, "home"), TOOLGATE_DB: "off", TOOLGATE_LABELS: "workflow=ci,repo=web-app" },
        answerBudgetMs: 10_000,
        onError: () => undefined,
      });
      expect(started.answer.exitCode).toBe(0);
      await started.finish({ budgetMs: 5_000 });
      expect(labels).toEqual({ workflow: "ci", repo: "web-app" });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
