import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { temporaryDirectory } from "../../../test/support/temporary-directory.js";
import { createGuard } from "../../guard/create-guard.js";
import { buildPolicy } from "../../root/build-policy.js";
import { openTranscript } from "../common/read-transcript.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
import { parseCodexHookInput } from "./codex-hook-input.js";
import { failClosed } from "./codex-hook-output.js";
import { execpolicyPolicyRules, parseExecpolicyRules } from "./execpolicy-rules.js";
import { type CodexHookContext, handleCodexHook } from "./handle-codex-hook.js";

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "codex");
const payload = (name: string, patch: Record<string, unknown> = {}) =>
  parseCodexHookInput(JSON.stringify({ ...JSON.parse(readFileSync(join(fixtures, "hooks", name), "utf8")), ...patch }));

/** A guard whose policy is composed as the root composes it: toolgate's rules, then Codex's `.rules` (stricter wins). */
function context(options: {
  rules?: string;
  transcript?: string;
  policyRules?: { rule: string; behavior: "deny" | "ask" }[];
  interactive?: boolean;
}) {
  const codex = execpolicyPolicyRules(parseExecpolicyRules(options.rules ?? "", "test.rules"));
  const policy = buildPolicy({
    cwd: "/tmp/toolgate-fixture/project",
    homeDir: "/tmp/toolgate-fixture/home",
    env: {},
    claudeSettings: false,
    config: { permissions: { rules: options.policyRules ?? [] } },
    hostPolicy: { rules: codex.rules, sources: [], warnings: codex.warnings, claudeSettings: false },
  });
  const interactive = options.interactive ?? false;
  const guard = createGuard({ policy, onError: () => undefined });
  const session = guard.session("s1", { interactive, host: "codex" });
  const hook: CodexHookContext = { session, interactive, readTranscript: () => options.transcript };
  return { hook, session, guard };
}

const FORBID = 'prefix_rule(pattern = ["rm"], decision = "forbidden", justification = "no rm here")';
const PROMPT = 'prefix_rule(pattern = ["rm"], decision = "prompt")';
const reasonOf = (answer: { output?: unknown }) =>
  String(
    (answer.output as { hookSpecificOutput?: { permissionDecisionReason?: string } })?.hookSpecificOutput
      ?.permissionDecisionReason,
  );

describe("handleCodexHook (payloads recorded from Codex 0.169.0)", () => {
  it("PreToolUse: a Codex forbidden rule is denied first, with toolgate's guidance, and recorded with the rule", async () => {
    const { hook, session } = context({ rules: FORBID });
    const answer = await handleCodexHook(payload("pre-tool-use.json"), hook);
    expect(answer.exitCode).toBe(0);
    expect(reasonOf(answer)).toMatch(/^\[toolgate\]/);
    const state = await session.state();
    expect(state.records.at(-1)).toMatchObject({
      source: "rule",
      rule: 'prefix_rule(pattern=["rm"], decision="forbidden")',
      tool: "Bash",
    });
  });

  it("PreToolUse: a prompt rule under approval never (bypassPermissions) is a headless denial", async () => {
    const { hook, session } = context({ rules: PROMPT });
    const answer = await handleCodexHook(payload("pre-tool-use.json"), hook);
    expect(reasonOf(answer)).toContain("[toolgate]");
    expect((await session.state()).records.at(-1)?.source).toBe("headless");
  });

  it("PreToolUse: a prompt rule with a person to ask is left to Codex (never an allow answer)", async () => {
    const { hook } = context({ rules: PROMPT, interactive: true });
    const answer = await handleCodexHook(payload("pre-tool-use.json", { permission_mode: "default" }), hook);
    expect(JSON.stringify(answer.output ?? {})).not.toContain("permissionDecision");
  });

  it("PreToolUse: an allowed call passes without a decision; toolgate's deny rules still apply", async () => {
    const { hook } = context({ policyRules: [{ rule: "Bash(curl *)", behavior: "deny" }] });
    const ok = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "ls" }, tool_use_id: "a" }),
      hook,
    );
    expect(JSON.stringify(ok.output ?? {})).not.toContain("permissionDecision");
    const denied = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "curl https://x" }, tool_use_id: "b" }),
      hook,
    );
    expect(reasonOf(denied)).toContain("Bash(curl *)");
  });

  it("PreToolUse: the same forbidden call again and again aborts, and every later call is denied with the abort", async () => {
    const { hook, session } = context({ rules: FORBID });
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      await handleCodexHook(payload("pre-tool-use.json", { tool_use_id: `call_${attempt}` }), hook);
    }
    expect((await session.state()).aborted).toBeDefined();
    const later = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "ls" }, tool_use_id: "z" }),
      hook,
    );
    expect(reasonOf(later)).toMatch(/stopped|aborted/i);
  });

  it("PreToolUse: a toolgate ask rule under approval never is a headless denial in the call's one step", async () => {
    const { hook, session } = context({
      policyRules: [{ rule: "Bash(git push *)", behavior: "ask" }],
      interactive: true,
    });
    const update = vi.spyOn(session, "denied");
    const answer = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "git push origin main" } }),
      hook,
    );
    expect(reasonOf(answer)).toContain("[toolgate]");
    expect((await session.state()).records.at(-1)).toMatchObject({ source: "headless", rule: "Bash(git push *)" });
    expect(update).not.toHaveBeenCalled();
    // with a person to ask (approval on request, TOOLGATE_INTERACTIVE=1), Codex asks: no refusal, no record
    const asked = await handleCodexHook(
      payload("pre-tool-use.json", {
        tool_input: { command: "git push origin main" },
        tool_use_id: "call_2",
        permission_mode: "default",
      }),
      hook,
    );
    expect(JSON.stringify(asked.output ?? {})).not.toContain("permissionDecision");
    expect((await session.state()).total).toBe(1);
  });

  it("PreToolUse: a Codex allow rule never turns toolgate's deny into an allow", async () => {
    const { hook } = context({
      rules: 'prefix_rule(pattern = ["curl"], decision = "allow")',
      policyRules: [{ rule: "Bash(curl *)", behavior: "deny" }],
    });
    const answer = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "curl https://x" } }),
      hook,
    );
    expect(reasonOf(answer)).toContain("Bash(curl *)");
  });

  it("PreToolUse: Codex's own refusals in the rollout are counted before the call, in the same one transaction", async () => {
    const transcript = readFileSync(join(fixtures, "forbidden.rollout.jsonl"), "utf8");
    const { hook, session } = context({ transcript });
    const steps = vi.spyOn(session, "decide");
    const others = [vi.spyOn(session, "denied"), vi.spyOn(session, "deniedUnlessRecorded")];
    const answer = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "ls" }, tool_use_id: "call_3" }),
      hook,
    );
    expect(steps).toHaveBeenCalledTimes(1);
    for (const other of others) expect(other).not.toHaveBeenCalled();
    const records = (await session.state()).records;
    // Codex refused `rm -rf victim` twice itself: the headless threshold is reached before this call is decided,
    // so this very call already carries the abort (counted when the model retries, not at the turn's end)
    expect(records.map((record) => [record.toolUseId, record.source])).toEqual([
      ["call_1", "rule"],
      ["call_2", "rule"],
      ["call_3", "aborted"],
    ]);
    expect(reasonOf(answer)).toMatch(/stopped|aborted/i);
    // read again at the turn's end: nothing is counted twice
    await handleCodexHook(payload("stop.json"), hook);
    expect((await session.state()).total).toBe(3);
  });

  it("PreToolUse with the session's cursors: a refusal the rollout showed an earlier event is not handed over again", async () => {
    // a record buffer of 2: the rollout's first refusal is evicted by the first event, so a later event that handed
    // it to the guard again could only confirm it in the denial store (which a hook opens for it)
    const query = vi.fn(async () => []);
    const guard = createGuard({ core: { recordBufferSize: 2 }, denialStore: { query }, onError: () => undefined });
    const session = guard.session("s1", { interactive: false, host: "codex" });
    const rollout = join(temporaryDirectory("toolgate-codex-cursor-"), "rollout.jsonl");
    writeFileSync(rollout, readFileSync(join(fixtures, "forbidden.rollout.jsonl")));
    const cursors = new Map<string, TranscriptCursor>();
    const hook: CodexHookContext = {
      session,
      interactive: false,
      readTranscript: () => undefined,
      openTranscript,
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    const event = (id: string) =>
      payload("pre-tool-use.json", { tool_input: { command: "ls" }, tool_use_id: id, transcript_path: rollout });
    await handleCodexHook(event("call_3"), hook);
    expect(query).toHaveBeenCalledTimes(1); // the session's first event: no state yet to tell
    expect(cursors.get(rollout)?.offset).toBe(readFileSync(rollout).length);
    await handleCodexHook(event("call_4"), hook);
    await handleCodexHook(payload("stop.json", { transcript_path: rollout }), hook);
    expect(query).toHaveBeenCalledTimes(1);
    expect((await session.state()).total).toBe(4);
    // a refusal Codex made since, its call written before an event and its output after: found after the cursor,
    // with its call from before it, and counted once
    const [call, output] = ['"function_call"', '"function_call_output"'].map((type) =>
      readFileSync(join(fixtures, "forbidden.rollout.jsonl"), "utf8")
        .split("\n")
        .find((line) => line.includes(type) && line.includes('"call_1"'))!
        .replaceAll('"call_1"', '"call_9"'),
    );
    appendFileSync(rollout, `${call}\n`);
    await handleCodexHook(event("call_5"), hook);
    appendFileSync(rollout, `${output}\n`);
    await handleCodexHook(event("call_6"), hook);
    const records = (await session.state()).records;
    expect(records.map((record) => [record.toolUseId, record.source, record.input])).toEqual([
      ["call_9", "rule", { command: "rm -rf victim" }],
      ["call_6", "aborted", { command: "ls" }],
    ]);
    await handleCodexHook(event("call_7"), hook);
    expect((await session.state()).total).toBe(8);
    expect(query).toHaveBeenCalledTimes(1);
  });

  it("PreToolUse on a rollout cut while it is read: decided as without a rollout (never denied for it), no cursor", async () => {
    const { session } = context({});
    const rollout = join(temporaryDirectory("toolgate-codex-cut-"), "rollout.jsonl");
    writeFileSync(rollout, readFileSync(join(fixtures, "forbidden.rollout.jsonl")));
    const cursors = new Map<string, TranscriptCursor>();
    const hook: CodexHookContext = {
      session,
      interactive: false,
      readTranscript: () => undefined,
      // a small window, and the rollout cut just after the view was opened: its search has to read again, and fails
      openTranscript: (at, from) => {
        const view = openTranscript(at, from, { chunkBytes: 64 });
        writeFileSync(rollout, "");
        return view;
      },
      transcriptCursors: { read: (path) => cursors.get(path), write: (path, cursor) => void cursors.set(path, cursor) },
    };
    const answer = await handleCodexHook(
      payload("pre-tool-use.json", { tool_input: { command: "ls" }, tool_use_id: "call_3", transcript_path: rollout }),
      hook,
    );
    expect(JSON.stringify(answer)).not.toMatch(/"deny"/);
    expect((await session.state()).total).toBe(0);
    expect(cursors.size).toBe(0);
  });

  it("PostToolUse: a read-only file system refusal counts as a sandbox denial", async () => {
    const { hook, session } = context({});
    await handleCodexHook(payload("post-tool-use-read-only.json"), hook);
    expect((await session.state()).records.at(-1)).toMatchObject({ source: "sandbox", tool: "Bash" });
  });

  it("Stop: refusals only the rollout shows are recorded once, keyed by call id", async () => {
    const transcript = readFileSync(join(fixtures, "forbidden.rollout.jsonl"), "utf8");
    const { hook, session } = context({ transcript });
    await handleCodexHook(payload("stop.json"), hook);
    await handleCodexHook(payload("session-end.json"), hook);
    const records = (await session.state()).records;
    expect(records.map((record) => record.toolUseId)).toEqual(["call_1", "call_2"]);
    expect(records.every((record) => record.source === "rule")).toBe(true);
  });

  it("fails closed: a deny for PreToolUse, exit 2 for an unreadable event, a non-blocking error otherwise", () => {
    expect(JSON.stringify(failClosed({ eventName: "PreToolUse", reason: "boom" }).output)).toContain('"deny"');
    expect(failClosed({ eventName: undefined, reason: "boom" }).exitCode).toBe(2);
    expect(failClosed({ eventName: "Stop", reason: "boom" }).exitCode).toBe(1);
  });

  it("rejects payloads without the fields toolgate needs, with a sentence", () => {
    expect(() => parseCodexHookInput("{}")).toThrow(/not one toolgate handles/);
    expect(() => parseCodexHookInput('{"hook_event_name":"PreToolUse","session_id":"s"}')).toThrow(/tool_name/);
    expect(() => parseCodexHookInput("nope")).toThrow(/not JSON/);
  });
});
