import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { AuditEvent } from "../../core/records.js";
import { createGuard } from "../../guard/create-guard.js";
import { runHook } from "../../hook-runtime/run-hook.js";
import { compilePolicy } from "../../policy/compile-policy.js";
import { transcriptLinesOf } from "../common/hook-host.js";
import { claudeHookHost } from "./claude-hook-host.js";
import { type ClaudeHookContext, handleClaudeHook } from "./handle-hook.js";
import { parseClaudeHookInput } from "./hook-input.js";
import type { HookAnswer } from "./hook-output.js";

const runClaudeCodeHook = async (options: {
  stdinText: string;
  environment: Record<string, string>;
  onError: () => void;
}): Promise<HookAnswer> =>
  (await runHook(claudeHookHost, {
    stdinText: options.stdinText,
    env: options.environment,
    onError: options.onError,
  })) as HookAnswer;

const fixtures = join(import.meta.dirname, "..", "..", "..", "test", "fixtures", "claude-code");
const fixture = (name: string) => readFileSync(join(fixtures, name), "utf8");
const payload = (name: string, patch: Record<string, unknown> = {}) =>
  parseClaudeHookInput(JSON.stringify({ ...JSON.parse(fixture(name)), ...patch }));

function context(options: { interactive: boolean; transcript?: string }): ClaudeHookContext {
  const policy = compilePolicy({
    rules: [{ rule: "Bash(rm:*)", behavior: "deny", origin: "test settings" }],
    cwd: "/tmp/toolgate-fixture/project",
    homeDir: "/tmp/toolgate-fixture/home",
  });
  const guard = createGuard({ policy, onError: () => undefined });
  const session = guard.session("s1", { interactive: options.interactive, host: "claude-code" });
  return { session, interactive: options.interactive, readTranscript: () => options.transcript };
}

describe("handleClaudeHook (recorded payloads)", () => {
  it("PreToolUse: denies a rule-denied call first, with toolgate's guidance as the reason", async () => {
    const answer = await handleClaudeHook(payload("pre-tool-use-rule-denied.json"), context({ interactive: false }));
    const output = answer.output?.hookSpecificOutput;
    expect(output?.permissionDecision).toBe("deny");
    expect(String(output?.permissionDecisionReason)).toContain("[toolgate]");
    expect(String(output?.permissionDecisionReason)).toContain("Bash(rm:*)");
  });

  it("PreToolUse: never answers allow; an allowed or asked call is left to Claude Code", async () => {
    const hook = context({ interactive: false });
    for (const command of ["echo ok", "touch new-file.txt", "npm publish"]) {
      const answer = await handleClaudeHook(
        payload("pre-tool-use.json", { tool_input: { command }, tool_use_id: `t-${command}` }),
        hook,
      );
      expect(answer.output?.hookSpecificOutput?.permissionDecision).toBeUndefined();
      expect(answer.exitCode).toBe(0);
    }
  });

  it("PreToolUse: stops the run (continue: false) once toolgate aborts, and keeps stopping", async () => {
    const hook = context({ interactive: false });
    const answers = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push(
        await handleClaudeHook(
          payload("pre-tool-use-rule-denied.json", {
            tool_input: { command: `rm -rf ./build-${index}` },
            tool_use_id: `t${index}`,
          }),
          hook,
        ),
      );
    }
    console.log(JSON.stringify(answers));
    const firstStop = answers.findIndex((answer) => answer.output?.continue === false);
    expect(firstStop).toBeGreaterThanOrEqual(0);
    expect(answers[firstStop]?.output?.stopReason).toMatch(/toolgate aborted the run/);
    for (const answer of answers.slice(firstStop)) expect(answer.output?.continue).toBe(false);
  });

  it("PermissionRequest: headless -> deny with toolgate's message; interactive -> left to the person", async () => {
    const transcript = fixture("transcript-denials.jsonl");
    const headless = await handleClaudeHook(
      payload("permission-request.json"),
      context({ interactive: false, transcript }),
    );
    const decision = headless.output?.hookSpecificOutput?.decision as { behavior: string; message: string };
    expect(decision.behavior).toBe("deny");
    expect(decision.message).toMatch(/^\[toolgate\]/);
    const interactive = await handleClaudeHook(
      payload("permission-request.json"),
      context({ interactive: true, transcript }),
    );
    expect(interactive.output).toBeUndefined();
  });

  it("Stop and SessionEnd reconcile the transcript: each denial no hook saw is recorded once", async () => {
    const hook = context({ interactive: false, transcript: fixture("transcript-denials.jsonl") });
    await handleClaudeHook(payload("stop.json"), hook);
    await handleClaudeHook(payload("session-end.json"), hook);
    const records = (await hook.session.state()).records;
    expect(records.map((record) => [record.toolUseId, record.tool, record.source])).toEqual([
      ["toolu_main_002_0", "Bash", "rule"],
      ["toolu_main_003_0", "Read", "rule"],
      ["toolu_main_004_0", "Bash", "headless"],
    ]);
    // each keeps the time Claude Code wrote its refusal, not the Stop's: a timeline shows them in transcript order
    const lines = fixture("transcript-denials.jsonl").split("\n");
    const written = records.map((record) =>
      Date.parse(
        JSON.parse(
          lines.find(
            (line) => line.includes('"is_error":true') && line.includes(`"tool_use_id":"${record.toolUseId}"`),
          ) as string,
        ).timestamp,
      ),
    );
    expect(records.map((record) => record.at)).toEqual(written);
    expect(Math.max(...written)).toBeLessThan(Date.now() - 60_000);
  });

  it("PermissionDenied records a classifier denial; a subagent's call is attributed to it", async () => {
    const hook = context({ interactive: false });
    await handleClaudeHook(payload("permission-denied.json"), hook);
    await handleClaudeHook(payload("subagent-start.json"), hook);
    await handleClaudeHook(payload("pre-tool-use-subagent.json"), hook);
    const records = (await hook.session.state()).records;
    expect(records.map((record) => [record.source, record.agentId])).toEqual([
      ["classifier", undefined],
      ["rule", JSON.parse(fixture("subagent-start.json")).agent_id],
    ]);
  });

  it("PreSkillShellCommand: a rule-denied command is refused, counted and recorded as a labelled shell call", async () => {
    const hook = context({ interactive: false });
    const answer = await handleClaudeHook(
      payload("pre-skill-shell-command.json", { tool_input: { command: "rm -rf build" } }),
      hook,
    );
    expect(answer.exitCode).toBe(0);
    expect(answer.output?.hookSpecificOutput).toMatchObject({
      hookEventName: "PreSkillShellCommand",
      permissionDecision: "deny",
    });
    expect(String(answer.output?.hookSpecificOutput?.permissionDecisionReason)).toContain("[toolgate]");
    expect(String(answer.output?.hookSpecificOutput?.permissionDecisionReason)).toContain("Bash(rm:*)");
    const records = (await hook.session.state()).records;
    expect(records.map((record) => [record.tool, record.toolUseId, record.source, record.rule])).toEqual([
      ["Bash", "skill-shell:toolu_main_000_0:preamble-0", "rule", "Bash(rm:*)"],
    ]);
    // the same shell count as a Bash tool call: the next rm (a tool call this time) is the second denial
    await handleClaudeHook(payload("pre-tool-use-rule-denied.json"), hook);
    expect((await hook.session.state()).agents["main"]?.tools["Bash"]?.consecutive).toBe(2);
  });

  it("PreSkillShellCommand: an allowed command is left to Claude Code (no answer, nothing recorded)", async () => {
    const hook = context({ interactive: false });
    const answer = await handleClaudeHook(payload("pre-skill-shell-command.json"), hook);
    expect(answer).toEqual({ exitCode: 0 });
    expect((await hook.session.state()).records).toEqual([]);
  });

  it("PreSkillShellCommand: an ask rule is a denial (a skill cannot wait for an answer)", async () => {
    const policy = compilePolicy({
      rules: [{ rule: "Bash(git push:*)", behavior: "ask", origin: "test settings" }],
      cwd: "/tmp/toolgate-fixture/project",
      homeDir: "/tmp/toolgate-fixture/home",
    });
    const guard = createGuard({ policy, onError: () => undefined });
    for (const interactive of [false, true]) {
      const session = guard.session(`ask-${interactive}`, { interactive, host: "claude-code" });
      const answer = await handleClaudeHook(
        payload("pre-skill-shell-command.json", { tool_input: { command: "git push origin main" } }),
        { session, interactive, readTranscript: () => undefined },
      );
      expect(answer.output?.hookSpecificOutput?.permissionDecision, `interactive: ${interactive}`).toBe("deny");
      expect((await session.state()).records.map((record) => record.source)).toEqual(["headless"]);
    }
  });

  it("PreSkillShellCommand: stops the run (continue: false) once toolgate aborts", async () => {
    const hook = context({ interactive: false });
    const answers: HookAnswer[] = [];
    for (let index = 0; index < 6; index += 1) {
      answers.push(
        await handleClaudeHook(
          payload("pre-skill-shell-command.json", {
            tool_input: { command: `rm -rf ./build-${index}` },
            tool_use_id: `toolu_main_00${index}_0:preamble-0`,
          }),
          hook,
        ),
      );
    }
    console.log(JSON.stringify(answers));
    const firstStop = answers.findIndex((answer) => answer.output?.continue === false);
    expect(firstStop).toBeGreaterThanOrEqual(0);
    expect(answers[firstStop]?.output?.stopReason).toMatch(/toolgate aborted the run/);
    for (const answer of answers.slice(firstStop)) {
      expect(answer.output?.continue).toBe(false);
      expect(answer.output?.hookSpecificOutput?.permissionDecision).toBe("deny");
    }
  });

  it("PermissionDenied: never answers retry; a refused retry of the same call is one more denial of it", async () => {
    const hook = context({ interactive: false });
    const answers: HookAnswer[] = [];
    // the classifier refuses the call, and again the retry another hook's `retry: true` invited (a new id)
    const ids = Array.from({ length: 6 }, (_, index) => `toolu_main_00${index}_0`);
    for (const toolUseId of ids) {
      answers.push(await handleClaudeHook(payload("permission-denied.json", { tool_use_id: toolUseId }), hook));
    }
    for (const answer of answers) {
      expect(JSON.stringify(answer.output ?? {})).not.toContain("retry");
    }
    const state = await hook.session.state();
    expect(state.records.map((record) => record.toolUseId)).toEqual(ids);
    expect(new Set(state.records.map((record) => record.signature)).size).toBe(1);
    expect(state.agents["main"]?.tools["Bash"]?.consecutive).toBe(ids.length);
    // the retries reach the threshold: that answer stops the run (and still invites no retry)
    expect(answers.filter((answer) => answer.output?.continue === false)).toHaveLength(1);
    expect(answers[0]?.output?.continue).toBeUndefined();
  });

  it("PostToolUseFailure counts a failure; PostToolUse a success (no decision either way)", async () => {
    const hook = context({ interactive: false });
    const failed = await handleClaudeHook(payload("post-tool-use-failure.json"), hook);
    expect(failed.output?.hookSpecificOutput?.permissionDecision).toBeUndefined();
    // the failure entered the same-error streak of its tool
    expect((await hook.session.state()).agents["main"]?.errorStreak).toMatchObject({ tool: "Bash", count: 1 });
    await handleClaudeHook(payload("pre-tool-use-rule-denied.json"), hook);
    expect((await hook.session.state()).agents["main"]?.tools["Bash"]?.consecutive).toBe(1);
    const succeeded = await handleClaudeHook(payload("post-tool-use.json"), hook);
    expect(succeeded.exitCode).toBe(0);
    // the success ended the Bash streaks
    const agent = (await hook.session.state()).agents["main"];
    expect(agent?.consecutive).toBe(0);
    expect(agent?.tools["Bash"]?.consecutive).toBe(0);
    expect(agent?.errorStreak).toBeUndefined();
  });

  it("PostToolUse whose output shows an OS refusal counts as a sandbox denial", async () => {
    const hook = context({ interactive: false });
    await handleClaudeHook(
      payload("post-tool-use.json", {
        tool_input: { command: "touch /etc/x" },
        tool_response: { stdout: "", stderr: "touch: cannot touch '/etc/x': Permission denied" },
      }),
      hook,
    );
    const records = (await hook.session.state()).records;
    expect(records.map((record) => record.source)).toEqual(["sandbox"]);
  });
});

describe("runClaudeCodeHook fails closed", () => {
  const quiet = { onError: () => undefined };

  it("an unreadable event blocks (exit 2)", async () => {
    const answer = await runClaudeCodeHook({ stdinText: "{not json", environment: {}, ...quiet });
    expect(answer.exitCode).toBe(2);
  });

  it("an unknown event name blocks (exit 2), and a nested hook_event_name does not change the event", async () => {
    const unknown = await runClaudeCodeHook({
      stdinText: JSON.stringify({ hook_event_name: "NewEvent", session_id: "s" }),
      environment: {},
      ...quiet,
    });
    expect(unknown.exitCode).toBe(2);
    const nested = await runClaudeCodeHook({
      stdinText: JSON.stringify({
        hook_event_name: "PreToolUse",
        session_id: "s",
        tool_input: { note: { hook_event_name: "Stop" } },
      }),
      environment: {},
      ...quiet,
    });
    expect(nested.output?.hookSpecificOutput).toMatchObject({
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
    });
  });

  it.each([
    ["pre-tool-use.json", "PreToolUse"],
    ["permission-request.json", "PermissionRequest"],
    ["pre-skill-shell-command.json", "PreSkillShellCommand"],
  ])("an internal error on %s answers deny, never allow", async (name, event) => {
    // an invalid store URL makes opening the store throw inside the hook
    const answer = await runClaudeCodeHook({
      stdinText: fixture(name),
      environment: { TOOLGATE_DATABASE_URL: "mysql://nope", HOME: "/nonexistent-home" },
      ...quiet,
    });
    expect(answer.exitCode).toBe(0);
    const output = answer.output?.hookSpecificOutput as Record<string, unknown>;
    expect(output.hookEventName).toBe(event);
    const denied =
      output.permissionDecision === "deny" ||
      (output.decision as { behavior?: string } | undefined)?.behavior === "deny";
    expect(denied).toBe(true);
  });

  it("a PreSkillShellCommand event without a command to decide is refused", async () => {
    const event = JSON.parse(fixture("pre-skill-shell-command.json"));
    for (const toolInput of [undefined, null, {}, { command: 7 }]) {
      const answer = await runClaudeCodeHook({
        stdinText: JSON.stringify({ ...event, tool_input: toolInput }),
        environment: {},
        ...quiet,
      });
      expect(answer.exitCode, JSON.stringify(toolInput)).toBe(0);
      expect(answer.output?.hookSpecificOutput).toMatchObject({
        hookEventName: "PreSkillShellCommand",
        permissionDecision: "deny",
      });
      expect(String(answer.output?.hookSpecificOutput?.permissionDecisionReason)).toContain(
        "has no tool_input.command",
      );
    }
  });

  it("an internal error on a non-gating event does not block the run", async () => {
    const answer = await runClaudeCodeHook({
      stdinText: fixture("stop.json"),
      environment: { TOOLGATE_DATABASE_URL: "mysql://nope", HOME: "/nonexistent-home" },
      ...quiet,
    });
    expect(answer.exitCode).toBe(1);
  });
});

describe("handleClaudeHook: a subagent's wasted tokens (issue 26 item 5)", () => {
  it("SubagentStop names them from the subagent's own transcript; the session's summary carries them", async () => {
    const events: AuditEvent[] = [];
    const guard = createGuard({
      policy: compilePolicy({
        rules: [{ rule: "Bash(rm:*)", behavior: "deny", origin: "test settings" }],
        cwd: "/tmp/toolgate-fixture/project",
        homeDir: "/tmp/toolgate-fixture/home",
      }),
      onError: () => undefined,
      sinks: [
        {
          deliver: async (effects) => {
            for (const effect of effects) if (effect.type === "audit") events.push(effect.event);
          },
        },
      ],
    });
    const stop = payload("subagent-stop.json");
    const subagentPath = (stop as { agent_transcript_path?: string }).agent_transcript_path;
    // the recorded subagent transcript: its `rm -rf ./cache` (toolu_subagent_000_0) refused by a deny rule, its
    // request 120 tokens (100 in, 20 out); the session's transcript does not show the subagent's calls
    const hook: ClaudeHookContext = {
      session: guard.session("s1", { interactive: false, host: "claude-code" }),
      interactive: false,
      readTranscript: (path) => (path === subagentPath ? fixture("transcript-subagent.jsonl") : undefined),
    };
    // the subagent's first refusal of the pattern, answered by toolgate; the transcript's is then a wasted call
    await handleClaudeHook(payload("pre-tool-use-subagent.json", { tool_use_id: "toolu_subagent_first" }), hook);
    await handleClaudeHook(stop, hook);
    expect((await hook.session.state()).tokens).toMatchObject({ wasted: 120, pending: [] });
    await handleClaudeHook(payload("session-end.json"), hook);
    await guard.drain();
    expect(events.find((event) => event.kind === "session.summary")?.detail["wastedTokens"]).toBe(120);
  });
});

describe("handleClaudeHook: a wasted call no transcript names", () => {
  it("waits no longer once a Stop's transcript does not name it", async () => {
    // two refusals of one pattern under ids the transcript (its first line, the person's prompt) never shows: the
    // second is a wasted call
    const hook = context({ interactive: false, transcript: fixture("transcript-denials.jsonl").split("\n")[0] });
    for (const id of ["toolu_not_in_any_transcript_1", "toolu_not_in_any_transcript_2"])
      await handleClaudeHook(payload("pre-tool-use-rule-denied.json", { tool_use_id: id }), hook);
    expect((await hook.session.state()).tokens?.pending).toEqual(["toolu_not_in_any_transcript_2"]);
    await handleClaudeHook(payload("stop.json"), hook);
    // before, it waited for ever, and every later turn's end searched the transcript for it
    expect((await hook.session.state()).tokens?.pending).toEqual([]);
  });
});

describe("handleClaudeHook: a Stop's wasted tokens from the lines its reconcile read", () => {
  const use = (id: string, message: string, input: number) =>
    JSON.stringify({
      type: "assistant",
      sessionId: "s1",
      message: {
        id: message,
        content: [{ type: "tool_use", id, name: "Bash", input: { command: "rm -rf ./build" } }],
        usage: { input_tokens: input, output_tokens: 1 },
      },
    });
  const refused = (id: string) =>
    JSON.stringify({
      type: "user",
      sessionId: "s1",
      message: {
        content: [
          {
            type: "tool_result",
            tool_use_id: id,
            is_error: true,
            content: "Permission to use Bash with command rm -rf ./build has been denied.",
          },
        ],
      },
    });

  it("searches the transcript only for the waiting calls its reconcile did not find, and counts them all", async () => {
    // two refusals the hook answered (toolu_h2 a wasted call), then one only the transcript shows (toolu_t3, wasted
    // too): its line was read by the reconcile, so the tokens search names toolu_h2 alone
    const text = [
      use("toolu_h1", "msg_1", 99),
      use("toolu_h2", "msg_2", 39),
      use("toolu_t3", "msg_3", 6),
      refused("toolu_t3"),
    ].join("\n");
    const searches: (readonly string[])[] = [];
    const hook: ClaudeHookContext = {
      ...context({ interactive: false }),
      readTranscript: () => text,
      openTranscript: () => {
        const lines = transcriptLinesOf(text);
        return {
          ...lines,
          linesWith: (needles) => {
            searches.push(needles);
            return lines.linesWith(needles);
          },
        };
      },
    };
    for (const id of ["toolu_h1", "toolu_h2"])
      await handleClaudeHook(payload("pre-tool-use-rule-denied.json", { tool_use_id: id }), hook);
    expect((await hook.session.state()).tokens?.pending).toEqual(["toolu_h2"]);
    await handleClaudeHook(payload("stop.json"), hook);
    expect((await hook.session.state()).tokens).toMatchObject({ wasted: 40 + 7, pending: [] });
    expect(searches).toEqual([['"is_error"'], ["toolu_h2"]]);
  });
});
