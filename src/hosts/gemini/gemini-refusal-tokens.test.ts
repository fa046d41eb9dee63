import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEvent, DenialRecord } from "../../core/records.js";
import { createGuard } from "../../guard/create-guard.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { NO_DEFAULTS } from "../../policy/defaults/read-only-defaults.js";
import type { HookContext } from "../common/hook-host.js";
import { parseGeminiHookInput } from "./gemini-hook-input.js";
import { ownRefusalTokens } from "./gemini-refusal-tokens.js";
import { handleGeminiHook } from "./handle-gemini-hook.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "gemini");
const read = (name: string) => readFileSync(join(fixtures, name), "utf8");
const payload = (name: string, patch: Record<string, unknown> = {}) =>
  parseGeminiHookInput(JSON.stringify({ ...JSON.parse(read(name)), ...patch }));

/**
 * The session file of a real Gemini CLI 0.61.0 run (test/e2e/gemini/stubborn.test.ts, "with toolgate"): toolgate
 * refused `rm -rf victim` at BeforeTool (`Tool execution blocked: ...`, recorded 02:47:24.137Z), then `rm -rf ./victim`
 * with the abort (`Agent execution stopped by hook: ...`, 02:47:24.226Z); each request 120 tokens.
 */
const SESSION = read("hook-refused.session.jsonl");
const FIRST_AT = Date.parse("2026-11-28T02:47:24.105Z");
const SECOND_AT = Date.parse("2026-11-28T02:47:24.206Z");
const ID_1 = "gemini-9a077926-c0fe-4d45-a14b-d241675781d8";
const ID_2 = "gemini-9b4c1eeb-4e67-4596-b96a-46f572efaf8d";

function record(toolUseId: string, command: string, at: number): DenialRecord {
  return {
    seq: 0,
    sessionId: "s1",
    turn: 1,
    tool: "run_shell_command",
    toolUseId,
    source: "rule",
    reason: "denied",
    signature: "",
    pattern: "rm",
    inputSummary: command,
    input: { command },
    at,
    timestamp: new Date(at).toISOString(),
  };
}

const RECORDS = [record(ID_1, "rm -rf victim", FIRST_AT), record(ID_2, "rm -rf ./victim", SECOND_AT)];

describe("ownRefusalTokens: toolgate's BeforeTool refusals matched to Gemini's session file (recorded 0.61.0)", () => {
  it("matches each refusal to the file's hook refusal of the same tool and input, after it", () => {
    expect(ownRefusalTokens({ text: SESSION, records: RECORDS, wanted: [ID_1, ID_2] })).toEqual({
      [ID_1]: 120,
      [ID_2]: 120,
    });
    // only the wanted ids
    expect(ownRefusalTokens({ text: SESSION, records: RECORDS, wanted: [ID_2] })).toEqual({ [ID_2]: 120 });
  });

  it("leaves a refusal it cannot tell uncounted: no false matches", () => {
    const wanted = [ID_1, ID_2];
    // a record after the file's call (the call it matched came before the refusal)
    const late = [RECORDS[0] as DenialRecord, record(ID_2, "rm -rf ./victim", SECOND_AT + 1_000)];
    expect(ownRefusalTokens({ text: SESSION, records: late, wanted })).toEqual({ [ID_1]: 120 });
    // a redacted (or otherwise different) input
    const redacted = [RECORDS[0] as DenialRecord, record(ID_2, "rm -rf ./[REDACTED]", SECOND_AT)];
    expect(ownRefusalTokens({ text: SESSION, records: redacted, wanted })).toEqual({ [ID_1]: 120 });
    // two refusals of one input, one refusal in the file: neither is matched
    const twice = [...RECORDS, record("gemini-00000000-0000-4000-8000-000000000000", "rm -rf victim", FIRST_AT + 1)];
    expect(ownRefusalTokens({ text: SESSION, records: twice, wanted })).toEqual({ [ID_2]: 120 });
    // another hook refused the same input too (two in the file, one of toolgate's): not matched
    const other = SESSION.replace("rm -rf ./victim", "rm -rf victim");
    expect(ownRefusalTokens({ text: other, records: [RECORDS[0] as DenialRecord], wanted })).toEqual({});
    // as many refusals as file records, but the second's record comes before its refusal: the pairing is wrong
    const ID_3 = "gemini-00000000-0000-4000-8000-000000000003";
    const same = SESSION.replace("rm -rf ./victim", "rm -rf victim");
    const misordered = [RECORDS[0] as DenialRecord, record(ID_3, "rm -rf victim", SECOND_AT + 100)];
    expect(ownRefusalTokens({ text: same, records: misordered, wanted: [ID_1, ID_3] })).toEqual({});
    const ordered = [RECORDS[0] as DenialRecord, record(ID_3, "rm -rf victim", SECOND_AT)];
    expect(ownRefusalTokens({ text: same, records: ordered, wanted: [ID_1, ID_3] })).toEqual({
      [ID_1]: 120,
      [ID_3]: 120,
    });
    // two refusals of one input recorded at one time (one batch): which is which cannot be told
    const oneTime = same.replaceAll("2026-11-28T02:47:24.226Z", "2026-11-28T02:47:24.137Z");
    const oneBatch = [RECORDS[0] as DenialRecord, record(ID_3, "rm -rf victim", FIRST_AT + 1)];
    expect(ownRefusalTokens({ text: oneTime, records: oneBatch, wanted: [ID_1, ID_3] })).toEqual({});
    // Gemini's own ids (a refusal found in the session file) and sandbox refusals are not toolgate's BeforeTool refusals
    const theirs = [{ ...(RECORDS[0] as DenialRecord), toolUseId: "run_shell_command_1795834043839_0" }];
    expect(ownRefusalTokens({ text: SESSION, records: theirs, wanted: [theirs[0]?.toolUseId ?? ""] })).toEqual({});
    const sandbox = [{ ...(RECORDS[0] as DenialRecord), source: "sandbox" as const }];
    expect(ownRefusalTokens({ text: SESSION, records: sandbox, wanted })).toEqual({});
  });
});

describe("handleGeminiHook: the tokens of a wasted call toolgate refused at BeforeTool (issue 26 item 5)", () => {
  it("AfterAgent names them from the session file; the session's summary carries them", async () => {
    const events: AuditEvent[] = [];
    let now = FIRST_AT;
    const guard = createGuard({
      policy: compilePolicy({
        rules: [{ rule: "Bash(rm *)", behavior: "deny", priority: 4.2 }],
        cwd: "/tmp/toolgate-fixture/proj",
        homeDir: "/tmp/toolgate-fixture/home",
        defaults: NO_DEFAULTS,
      }),
      clock: () => now,
      onError: () => undefined,
      sinks: [
        {
          deliver: async (effects) => {
            for (const effect of effects) if (effect.type === "audit") events.push(effect.event);
          },
        },
      ],
    });
    const hook: HookContext = {
      session: guard.session("s1", { interactive: false, host: "gemini" }),
      interactive: false,
      readTranscript: () => SESSION,
    };
    const beforeTool = (command: string) => payload("before-tool-policy-denied.json", { tool_input: { command } });
    expect((await handleGeminiHook(beforeTool("rm -rf victim"), hook)).output?.decision).toBe("deny");
    now = SECOND_AT;
    expect((await handleGeminiHook(beforeTool("rm -rf ./victim"), hook)).output?.decision).toBe("deny");
    expect((await hook.session.state()).tokens?.pending).toHaveLength(1);
    await handleGeminiHook(payload("after-agent.json"), hook);
    await handleGeminiHook(payload("session-end.json"), hook);
    await guard.drain();
    const summary = events.find((event) => event.kind === "session.summary");
    // the second refusal (the first `rm` was denied before) is the wasted call: its request's 120 tokens
    expect(summary?.detail["wastedTokens"]).toBe(120);
  });
});
