import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { HookAnswer, HookContext, HookHost } from "../hosts/common/hook-host.js";
import { noteRunAbort, RUN_DIRECTORY_ENV, runAbort } from "../root/run-sessions.js";
import { startHook } from "./run-hook.js";

interface TestEvent {
  hook_event_name: string;
  session_id: string;
}

let root: string;
let env: Record<string, string | undefined>;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "toolgate-run-hook-"));
  mkdirSync(join(root, "home"));
  mkdirSync(join(root, "project"));
  env = { HOME: join(root, "home") };
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

/** A command-hook host whose handler answers with `handle`; its fail-closed answer blocks (exit 2) and says why. */
function host(handle: () => Promise<HookAnswer>): HookHost<TestEvent> {
  return {
    name: "test-host",
    parse: (text) => JSON.parse(text) as TestEvent,
    eventName: (input) => input.hook_event_name,
    sessionId: (input) => input.session_id,
    projectDir: () => join(root, "project"),
    interactive: () => false,
    handle,
    failClosed: ({ eventName, reason }) => ({ exitCode: 2, stderr: `blocked ${eventName}: ${reason}` }),
  };
}

const stdinText = JSON.stringify({ hook_event_name: "PreToolUse", session_id: "s1" });

describe("startHook", () => {
  it("gives the host's fail-closed answer when the decision takes longer than its budget", async () => {
    const errors: string[] = [];
    const started = await startHook(
      host(() => new Promise<HookAnswer>(() => undefined)),
      { stdinText, env, answerBudgetMs: 200, onError: (message) => errors.push(message) },
    );
    expect(started.answer).toEqual({
      exitCode: 2,
      stderr: expect.stringMatching(/^blocked PreToolUse: no decision within 200 ms/),
    });
    expect(errors.join("\n")).toMatch(/hook PreToolUse failed: no decision within 200 ms/);
    // what never finishes cannot hold the process: finish gives up after its budget
    expect(await started.finish({ budgetMs: 100 })).toBe(false);
  });

  it("after the run's abort, an event of a host that cannot end itself tells run to end it now", async () => {
    const runDirectory = join(root, "run");
    mkdirSync(runDirectory);
    const runEnv = { ...env, TOOLGATE_DB: ":memory:", [RUN_DIRECTORY_ENV]: runDirectory };
    noteRunAbort(runEnv, { sessionId: "s1", reason: "toolgate aborted the run: stop.", hostEndsRun: true });
    const answered = { exitCode: 2, stderr: "refused" } as const;
    // a host whose own answer ends the run (Claude Code) is left its grace
    const ending = await startHook(
      { ...host(async () => answered), endsRunOnAbort: true },
      { stdinText, env: runEnv, holdAfterAbortMs: 0 },
    );
    await ending.finish();
    expect(runAbort(runDirectory)?.hostEndsRun).toBe(true);
    // one that cannot (Codex) went on after the abort: run ends it at once, and the answer waited for that
    const started = await startHook(
      host(async () => answered),
      { stdinText, env: runEnv, holdAfterAbortMs: 0 },
    );
    await started.finish();
    expect(started.answer).toEqual(answered);
    expect(runAbort(runDirectory)).toMatchObject({ sessionId: "s1", hostEndsRun: false });
  });

  it("answers with the handler's answer, then finishes", async () => {
    const started = await startHook(
      host(async () => ({ exitCode: 0, output: { ok: true } })),
      { stdinText, env, answerBudgetMs: 10_000 },
    );
    expect(started.answer).toEqual({ exitCode: 0, output: { ok: true } });
    expect(await started.finish({ budgetMs: 10_000 })).toBe(true);
  });

  it("asks the host whether a person can answer only when something reads it (a new session, a decision)", async () => {
    const interactive = vi.fn(() => false);
    let readIt = false;
    const counting: HookHost<TestEvent> = {
      ...host(async () => ({ exitCode: 0 })),
      interactive,
      handle: async (_input, context: HookContext) => {
        await context.session.turnStarted();
        if (readIt) expect(context.interactive).toBe(false);
        return { exitCode: 0 };
      },
    };
    const storeEnv = { ...env, TOOLGATE_DB: join(root, "toolgate.db") };
    const run = async () => (await startHook(counting, { stdinText, env: storeEnv })).finish();
    await run();
    // the session's first event: its state starts with it
    expect(interactive).toHaveBeenCalledTimes(1);
    await run();
    expect(interactive).toHaveBeenCalledTimes(1);
    readIt = true;
    await run();
    expect(interactive).toHaveBeenCalledTimes(2);
  });

  it("fails closed on an event it cannot read, naming no event", async () => {
    const errors: string[] = [];
    const started = await startHook(
      host(async () => ({ exitCode: 0 })),
      { stdinText: "{not json", env, onError: (message) => errors.push(message) },
    );
    expect(started.answer.exitCode).toBe(2);
    expect(started.answer.stderr).toMatch(/^blocked undefined: /);
    expect(errors[0]).toMatch(/^hook \(unreadable event\) failed/);
    expect(await started.finish()).toBe(true);
  });
});
