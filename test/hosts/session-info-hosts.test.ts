import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../src/core/records.js";
import { createGuard } from "../../src/guard/create-guard.js";
import { claudeHookHost } from "../../src/hosts/claude-code/claude-hook-host.js";
import { codexHookHost } from "../../src/hosts/codex/codex-hook-host.js";
import type { HookHost } from "../../src/hosts/common/hook-host.js";
import { copilotHookHost } from "../../src/hosts/copilot/copilot-hook-host.js";
import { geminiHookHost } from "../../src/hosts/gemini/gemini-hook-host.js";
import { qwenHookHost } from "../../src/hosts/qwen/qwen-hook-host.js";

const fixtures = join(import.meta.dirname, "..", "fixtures");
const recorded = (path: string) => JSON.parse(readFileSync(join(fixtures, path), "utf8")) as Record<string, unknown>;
const secret = `ghp_${"A1b2C3d4E5".repeat(4)}`;
const prompt = `Deploy with token ${secret} please\nsecond line`;

/** each hook host's prompt event (recorded where one is), with a multi-line prompt that carries a secret */
const cases: { host: HookHost<unknown>; eventName?: string; payload: Record<string, unknown> }[] = [
  {
    host: claudeHookHost as HookHost<unknown>,
    payload: { ...recorded("claude-code/user-prompt-submit.json"), cwd: "/work/claude-app", prompt },
  },
  {
    host: codexHookHost as HookHost<unknown>,
    payload: { session_id: "codex-1", hook_event_name: "UserPromptSubmit", cwd: "/work/codex-app", prompt },
  },
  {
    host: geminiHookHost as HookHost<unknown>,
    payload: { ...recorded("gemini/before-agent.json"), cwd: "/work/gemini-app", prompt },
  },
  {
    host: qwenHookHost as HookHost<unknown>,
    payload: { ...recorded("qwen/user-prompt-submit.json"), cwd: "/work/qwen-app", prompt },
  },
  {
    host: copilotHookHost as HookHost<unknown>,
    eventName: "userPromptSubmitted",
    payload: { ...recorded("copilot/user-prompt-submitted.json"), cwd: "/work/copilot-app", prompt },
  },
];

describe("hook hosts describe a session at its first prompt: project and first prompt line, redacted (issue 26 item 3)", () => {
  it.each(cases.map((entry) => [entry.host.name, entry] as const))("%s", async (_, entry) => {
    const events: AuditEvent[] = [];
    const guard = createGuard({
      onError: () => undefined,
      sinks: [
        {
          deliver: async (effects) => {
            for (const effect of effects) if (effect.type === "audit") events.push(effect.event);
          },
        },
      ],
    });
    const text = JSON.stringify(entry.payload);
    const input =
      entry.eventName === undefined ? entry.host.parse(text) : entry.host.parse(text, { eventName: entry.eventName });
    const session = guard.session(entry.host.sessionId(input), { interactive: false, host: entry.host.name });
    const context = { session, interactive: false, readTranscript: () => undefined, env: {} };
    await entry.host.handle(input, context);
    await entry.host.handle(input, context); // a second prompt describes nothing more
    await guard.drain();
    const infos = events.filter((event) => event.kind === "session.info");
    expect(infos).toHaveLength(1);
    expect(infos[0]?.detail["project"]).toBe(entry.payload["cwd"]);
    expect(infos[0]?.detail["firstPrompt"]).toMatch(/^Deploy with token \S+ please$/);
    expect(JSON.stringify(infos)).not.toContain(secret);
  });
});
