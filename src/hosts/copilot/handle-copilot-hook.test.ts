import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import type { HookContext } from "../common/hook-host.js";
import { openTranscript, transcriptOpenerForOneEvent } from "../common/read-transcript.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
import { type CopilotHookEventName, parseCopilotHookInput } from "./copilot-hook-input.js";
import { handleCopilotHook } from "./handle-copilot-hook.js";

/** The recorded Copilot CLI 1.0.102 session: a model retrying `rm -rf victim` against `--deny-tool=shell(rm)`. */
const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures");
const lines = readFileSync(join(fixtures, "transcripts", "copilot", "stubborn.events.jsonl"), "utf8").split("\n");
const hookStarts = lines
  .map((line, at) => ({ line, at }))
  .filter(({ line }) => line.includes('"type":"hook.start"') && line.includes('"hookType":"preToolUse"'));
const sessionId = String(JSON.parse(lines[0] as string).data.sessionId);
const RULE = "Permission to run this tool was denied due to the following rules: `shell(rm)`";

function context(options: {
  interactive: boolean;
  events: () => string;
  deny?: string;
}): HookContext & { paths: string[] } {
  const policy = compilePolicy({
    rules: options.deny === undefined ? [] : [{ rule: options.deny, behavior: "deny", origin: "test config" }],
    cwd: "/tmp/toolgate-fixture/project",
    homeDir: "/tmp/toolgate-fixture/home",
  });
  const guard = createGuard({ policy, onError: () => undefined });
  const session = guard.session(sessionId, { interactive: options.interactive, host: "copilot" });
  const paths: string[] = [];
  return {
    session,
    interactive: options.interactive,
    env: { HOME: "/home/user" },
    paths,
    readTranscript: (path) => {
      paths.push(path);
      return options.events();
    },
  };
}

/** The preToolUse payload of the n-th call as Copilot sent it (its hook.start has the same millisecond). */
function preToolUse(n: number, args?: Record<string, unknown>) {
  const start = JSON.parse(hookStarts[n]?.line as string);
  const call = start.data.input.toolCalls[0];
  return parseCopilotHookInput(
    JSON.stringify({
      sessionId,
      timestamp: Date.parse(start.timestamp),
      cwd: "/work/project",
      toolName: call.name,
      toolArgs: args ?? call.args,
    }),
    { eventName: "preToolUse" },
  );
}
const event = (name: CopilotHookEventName) =>
  parseCopilotHookInput(
    JSON.stringify({ sessionId, cwd: "/work/project", toolName: "bash", toolInput: { command: "rm -rf victim" } }),
    {
      eventName: name,
    },
  );
/** The events as Copilot had written them when the n-th preToolUse ran. */
const cutAt = (n: number) => `${lines.slice(0, (hookStarts[n]?.at ?? 0) + 1).join("\n")}\n`;

describe("handleCopilotHook (the recorded Copilot CLI 1.0.102 session)", () => {
  it("preToolUse reads the session's events.jsonl under $HOME/.copilot and counts Copilot's refusal of the call before, under its id", async () => {
    const hook = context({ interactive: false, events: () => cutAt(1) });
    const answer = await handleCopilotHook(preToolUse(1), hook);
    expect(answer.output).toBeUndefined();
    expect(hook.paths[0]).toBe(`/home/user/.copilot/session-state/${sessionId}/events.jsonl`);
    const firstId = JSON.parse(hookStarts[0]?.line as string).data.input.toolCalls[0].id;
    expect([...(await hook.session.recordedCallIds())]).toEqual([firstId]);
    // the same refusal is not counted twice by a later event
    await handleCopilotHook(preToolUse(1), hook);
    expect((await hook.session.state()).agents["main"]?.total).toBe(1);
  });

  it("preToolUse denies by toolgate's rule in Copilot's shape, marked as toolgate's", async () => {
    const hook = context({ interactive: false, events: () => cutAt(0), deny: "Bash(rm:*)" });
    const answer = await handleCopilotHook(preToolUse(0), hook);
    const output = answer.output as { permissionDecision?: string; permissionDecisionReason?: string };
    expect(output.permissionDecision).toBe("deny");
    expect(output.permissionDecisionReason).toMatch(/^\[toolgate\] Denied by rule Bash\(rm:\*\)/);
  });

  it("after the abort, permissionRequest refuses with the abort's text and, headless, interrupts the run", async () => {
    // headless: an interactive session is offered a grant at the threshold instead of an abort
    for (const interactive of [false]) {
      // a third call after both refusals: its preToolUse counts them, the second reaches the shell threshold (2)
      const at = Date.parse("2026-11-27T13:07:00.000Z");
      const third = JSON.stringify({
        type: "hook.start",
        data: {
          hookType: "preToolUse",
          input: { toolCalls: [{ id: "call_third", name: "bash", args: { command: "rm -rf victim" } }] },
        },
        timestamp: new Date(at).toISOString(),
      });
      const hook = context({ interactive, events: () => `${lines.join("\n")}\n${third}\n` });
      const payload = parseCopilotHookInput(
        JSON.stringify({ sessionId, timestamp: at, toolName: "bash", toolArgs: { command: "rm -rf victim" } }),
        { eventName: "preToolUse" },
      );
      const denied = (await handleCopilotHook(payload, hook)).output as { permissionDecisionReason?: string };
      expect(denied.permissionDecisionReason).toMatch(/^\[toolgate\] The run is being stopped/);
      expect((await hook.session.state()).aborted).toBeDefined();
      const answer = await handleCopilotHook(event("permissionRequest"), hook);
      const output = answer.output as { behavior?: string; message?: string; interrupt?: boolean };
      expect(output.behavior).toBe("deny");
      expect(output.message).toContain("[toolgate]");
      expect(output.interrupt).toBe(true);
    }
  });

  it("permissionRequest leaves a session that is not aborted to Copilot's own rules and prompt", async () => {
    const hook = context({ interactive: false, events: () => cutAt(0) });
    expect((await handleCopilotHook(event("permissionRequest"), hook)).output).toBeUndefined();
  });

  it("the events' refusal texts are Copilot's rule texts", () => {
    expect(lines.filter((line) => line.includes(RULE) && line.includes('"code":"denied"'))).toHaveLength(2);
  });
});

describe("handleCopilotHook reading events.jsonl through openTranscript (as the hook process does)", () => {
  const home = mkdtempSync(join(tmpdir(), "toolgate-copilot-hook-"));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const eventsFile = join(home, ".copilot", "session-state", sessionId, "events.jsonl");
  mkdirSync(dirname(eventsFile), { recursive: true });
  const opened = (openTranscript: HookContext["openTranscript"], deny?: string): HookContext => ({
    ...context({ interactive: false, events: () => "", ...(deny === undefined ? {} : { deny }) }),
    env: { HOME: home },
    readTranscript: () => {
      throw new Error("the events are read through openTranscript");
    },
    ...(openTranscript === undefined ? {} : { openTranscript }),
  });

  it("polls the file as Copilot writes it: a hook start written during the wait names the call, the refusal before it counts", async () => {
    // Copilot has not written this call's tool.execution_start and hook.start yet when the hook starts
    writeFileSync(eventsFile, `${lines.slice(0, (hookStarts[1]?.at ?? 0) - 1).join("\n")}\n`);
    expect(lines[(hookStarts[1]?.at ?? 0) - 1]).toContain('"type":"tool.execution_start"');
    const writer = setTimeout(() => writeFileSync(eventsFile, cutAt(1)), 100);
    const hook = opened(transcriptOpenerForOneEvent(), "Bash(rm *)");
    try {
      await handleCopilotHook(preToolUse(1), hook);
    } finally {
      clearTimeout(writer);
    }
    // toolgate's refusal of this call is recorded under the id of the hook start written during the wait
    const firstId = JSON.parse(hookStarts[0]?.line as string).data.input.toolCalls[0].id;
    const secondId = JSON.parse(hookStarts[1]?.line as string).data.input.toolCalls[0].id;
    expect([...(await hook.session.recordedCallIds())]).toEqual([firstId, secondId]);
  });

  it("a file cut while it is read is as if unreadable: the call is decided without it, never refused for it", async () => {
    writeFileSync(eventsFile, cutAt(1));
    const hook = opened((path, from, options) => {
      const lines = openTranscript(path, from, { ...options, chunkBytes: 64 });
      writeFileSync(eventsFile, "{}\n");
      return lines;
    });
    const answer = await handleCopilotHook(preToolUse(1), hook);
    expect(answer.output).toBeUndefined();
    expect(answer.exitCode ?? 0).toBe(0);
    expect([...(await hook.session.recordedCallIds())]).toEqual([]);
  });
  it("agentStop leaves a cursor where every call had its outcome; a later preToolUse scans only the calls after it", async () => {
    const cursors = new Map<string, TranscriptCursor>();
    const scanned: number[] = [];
    let scans = 0;
    const hook: HookContext = {
      ...opened((path, from, options) => {
        const lines = openTranscript(path, from, options);
        if (lines === undefined) return undefined;
        return {
          next: lines.next,
          searchedText: () => lines.searchedText(),
          eachLine: (keep) => lines.eachLine(keep),
          lastWith: (needle, before, pick) => lines.lastWith(needle, before, pick),
          linesWith(needles) {
            const found = lines.linesWith(needles);
            if (needles.includes('"tool.execution_')) {
              scans += 1;
              scanned.push(...found.map((line) => line.at));
            }
            return found;
          },
        };
      }),
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    // the first call refused and finished, the second not started yet
    const settled = `${lines.slice(0, (hookStarts[1]?.at ?? 0) - 1).join("\n")}\n`;
    writeFileSync(eventsFile, settled);
    await handleCopilotHook(event("agentStop"), hook);
    const firstId = JSON.parse(hookStarts[0]?.line as string).data.input.toolCalls[0].id;
    expect([...(await hook.session.recordedCallIds())]).toEqual([firstId]);
    expect(cursors.get(eventsFile)?.offset).toBe(Buffer.byteLength(settled));

    writeFileSync(eventsFile, cutAt(1));
    scanned.length = 0;
    scans = 0;
    await handleCopilotHook(preToolUse(1), hook);
    // one scan of the calls serves the settle check, the call's id and the refusals
    expect(scans).toBe(1);
    expect(scanned.length).toBeGreaterThan(0);
    expect(scanned.every((at) => at >= Buffer.byteLength(settled))).toBe(true);
    expect([...(await hook.session.recordedCallIds())]).toEqual([firstId]);

    // the second call still running at this agentStop: after the wait, the cursor stays where it was
    scans = 0;
    await handleCopilotHook(event("agentStop"), hook);
    expect(cursors.get(eventsFile)?.offset).toBe(Buffer.byteLength(settled));
    // the wait polled until its deadline and nothing new was written: the calls were scanned once
    expect(scans).toBe(1);
  });
});
