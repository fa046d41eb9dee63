import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { factsFromRecords, sessionFigures } from "../../src/core/figures.js";
import type { AuditEvent, DenialRecord } from "../../src/core/records.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { claudeHookHost } from "../../src/hosts/claude-code/claude-hook-host.js";
import { codexHookHost } from "../../src/hosts/codex/codex-hook-host.js";
import type { HookHost } from "../../src/hosts/common/hook-host.js";
import { copilotHookHost } from "../../src/hosts/copilot/copilot-hook-host.js";
import { geminiHookHost } from "../../src/hosts/gemini/gemini-hook-host.js";
import { qwenHookHost } from "../../src/hosts/qwen/qwen-hook-host.js";

const fixtures = join(import.meta.dirname, "..", "fixtures");
const recorded = (path: string) => JSON.parse(readFileSync(join(fixtures, path), "utf8")) as Record<string, unknown>;
const transcript = (path: string) => readFileSync(join(fixtures, "transcripts", path), "utf8");

interface Case {
  host: HookHost<unknown>;
  /** the turn's end and the session's end, recorded where they are */
  stop: Record<string, unknown>;
  end: Record<string, unknown>;
  eventNames?: [string, string];
  transcript: string;
}

const cases: Case[] = [
  {
    host: claudeHookHost as HookHost<unknown>,
    stop: recorded("claude-code/stop.json"),
    end: recorded("claude-code/session-end.json"),
    transcript: transcript("claude-code/stubborn.session.jsonl"),
  },
  {
    host: codexHookHost as HookHost<unknown>,
    stop: recorded("codex/hooks/stop.json"),
    end: recorded("codex/hooks/session-end.json"),
    transcript: transcript("codex/stubborn.rollout.jsonl"),
  },
  {
    host: geminiHookHost as HookHost<unknown>,
    stop: recorded("gemini/after-agent.json"),
    end: recorded("gemini/session-end.json"),
    transcript: transcript("gemini/stubborn.session.jsonl"),
  },
  {
    host: qwenHookHost as HookHost<unknown>,
    stop: recorded("qwen/stop.json"),
    end: { ...recorded("qwen/stop.json"), hook_event_name: "SessionEnd" },
    transcript: transcript("qwen/stubborn.chat.jsonl"),
  },
  {
    host: copilotHookHost as HookHost<unknown>,
    stop: recorded("copilot/agent-stop.json"),
    end: recorded("copilot/session-end.json"),
    eventNames: ["agentStop", "sessionEnd"],
    transcript: transcript("copilot/stubborn.events.jsonl"),
  },
];

async function run(entry: Case) {
  const events: AuditEvent[] = [];
  const records: DenialRecord[] = [];
  const guard = createGuard({
    onError: () => undefined,
    sinks: [
      {
        deliver: async (effects) => {
          for (const effect of effects) {
            if (effect.type === "audit") events.push(effect.event);
            if (effect.type === "record") records.push(effect.record);
          }
        },
      },
    ],
  });
  const parse = (payload: Record<string, unknown>, eventName: string | undefined) =>
    eventName === undefined
      ? entry.host.parse(JSON.stringify(payload))
      : entry.host.parse(JSON.stringify(payload), { eventName });
  const stop = parse(entry.stop, entry.eventNames?.[0]);
  const session = guard.session(entry.host.sessionId(stop), { interactive: false, host: entry.host.name });
  const context = { session, interactive: false, readTranscript: () => entry.transcript, env: {} };
  await entry.host.handle(stop, context);
  await entry.host.handle(parse(entry.end, entry.eventNames?.[1]), context);
  await guard.drain();
  return { events, records };
}

describe("hook hosts record wasted tokens from their transcripts (issue 26 item 5)", () => {
  // each recorded session: `rm -rf victim` refused three times, each request 120 tokens (100 in, 20 out); the
  // second and third refusals are wasted calls: 240 tokens
  it.each(cases.slice(0, 4).map((entry) => [entry.host.name, entry] as const))("%s", async (_, entry) => {
    const { events, records } = await run(entry);
    expect(records.map((record) => record.pattern)).toEqual(["rm", "rm", "rm"]);
    const summary = events.find((event) => event.kind === "session.summary");
    expect(summary?.detail["wastedTokens"]).toBe(240);
    // what report, the dashboard and analyze count from the stored rows and events (core/figures.ts)
    const [figures] = factsFromRecords({ records, events }).map(sessionFigures);
    expect(figures).toMatchObject({ wastedCalls: 2, wastedTokens: 240 });
  });

  it("a transcript without usage names no tokens: the figure stays unknown, not 0", async () => {
    const entry = cases[0] as Case;
    const { events } = await run({ ...entry, transcript: entry.transcript.replaceAll('"usage":', '"no_usage":') });
    const summary = events.find((event) => event.kind === "session.summary");
    expect(summary?.detail).not.toHaveProperty("wastedTokens");
  });

  it("Copilot CLI: its hook's session events carry no per-call usage toolgate reads, so no tokens are named", async () => {
    const { events } = await run(cases[4] as Case);
    expect(events.find((event) => event.kind === "session.summary")?.detail).not.toHaveProperty("wastedTokens");
  });
});
