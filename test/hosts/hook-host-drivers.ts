import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { HookAnswer } from "../../src/hosts/common/hook-host.js";

type CallOptions = { sessionId: string; cwd: string; command: string; toolUseId: string };

/**
 * What the host contract suite needs to speak to one command-hook host: the host's own gating event for a shell
 * call, and how to read the host's answer. One entry per registered hook host: the suite fails for a hook host that
 * has none, so a new host cannot land without being driven through the contract.
 */
export interface HookHostDriver {
  /** the event the host sends before it runs a shell command (its own field names and tool name) */
  shellCall(options: CallOptions): Record<string, unknown>;
  /**
   * The host's other events that gate a shell command outside a tool call (Claude Code's PreSkillShellCommand: a
   * skill's inline shell command), each driven through the same contract rows as `shellCall`. Absent when none.
   */
  otherShellCalls?: readonly { event: string; call(options: CallOptions): Record<string, unknown> }[];
  /** what the host does with toolgate's answer, and the text the model reads */
  verdict(answer: HookAnswer): { behavior: "deny" | "allow" | "ask" | "none"; text: string };
  /** the host's own name for its shell tool, as the records of its calls carry it */
  shellTool: string;
  /**
   * The event on which toolgate reads a subagent's transcript, and a recorded transcript of the host whose denials
   * name no agent: toolgate files them under the event's agent id (`recordTranscriptDenials`' fallback). Absent for
   * a host whose events name no subagent (Gemini CLI).
   */
  subagentEnd?: {
    /** the transcript, under test/fixtures */
    fixture: string;
    /** how many denials toolgate finds in it */
    denials: number;
    event(options: {
      sessionId: string;
      cwd: string;
      agentId: string;
      transcriptPath: string;
    }): Record<string, unknown>;
  };
  /**
   * The host's own permission rules, for a host whose rules toolgate reads into its policy (the descriptor's
   * `permissionRules`): `write` puts a rule that forbids `command` where the host reads it; `rule` is how the
   * denial names it. Absent for a host whose own rules toolgate does not read.
   */
  ownRuleDenial?: { write(options: { home: string; project: string }): void; command: string; rule: string };
  /**
   * One call a toolgate ask rule (`Bash(git push *)`) asks about, in a run where nobody can answer: the
   * environment that makes the run headless, the host's events for that one call in order (its gating event, and
   * the event where the host itself declines or asks, if it has one), and whether toolgate's answer to the last
   * event refuses the call (else the host declines it itself and toolgate counts that decline).
   */
  headlessAsk: {
    env: Record<string, string>;
    events(options: CallOptions): Record<string, unknown>[];
    refusedByToolgate: boolean;
  };
}

/** Claude Code, Codex and Qwen Code answer a PreToolUse with `hookSpecificOutput.permissionDecision`. */
function preToolUseVerdict(answer: HookAnswer): ReturnType<HookHostDriver["verdict"]> {
  if (answer.exitCode === 2) return { behavior: "deny", text: answer.stderr ?? "" };
  const output = (answer.output ?? {}) as { hookSpecificOutput?: Record<string, unknown> };
  const specific = output.hookSpecificOutput ?? {};
  // a PermissionRequest answer (Claude Code) carries `decision: { behavior, message }`
  const request = (specific["decision"] ?? {}) as { behavior?: unknown; message?: unknown };
  const decision = specific["permissionDecision"] ?? request.behavior;
  const text = String(specific["permissionDecisionReason"] ?? request.message ?? specific["additionalContext"] ?? "");
  if (decision === "deny" || decision === "allow" || decision === "ask") return { behavior: decision, text };
  return { behavior: "none", text };
}

export const HOOK_HOST_DRIVERS: Readonly<Record<string, HookHostDriver>> = {
  "claude-code": {
    shellCall: ({ sessionId, cwd, command, toolUseId }) => ({
      session_id: sessionId,
      transcript_path: `${cwd}/transcript.jsonl`,
      cwd,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: toolUseId,
    }),
    otherShellCalls: [
      {
        event: "PreSkillShellCommand",
        call: ({ sessionId, cwd, command, toolUseId }) => ({
          session_id: sessionId,
          transcript_path: `${cwd}/transcript.jsonl`,
          cwd,
          permission_mode: "default",
          hook_event_name: "PreSkillShellCommand",
          tool_name: "Bash",
          tool_input: { command },
          tool_use_id: `${toolUseId}:preamble-0`,
          command_name: "cleanup",
          command_source: "projectSettings",
          invoked_by: "claude",
        }),
      },
    ],
    verdict: preToolUseVerdict,
    shellTool: "Bash",
    subagentEnd: {
      fixture: "claude-code/transcript-denials.jsonl",
      denials: 3,
      event: ({ sessionId, cwd, agentId, transcriptPath }) => ({
        session_id: sessionId,
        transcript_path: `${cwd}/transcript.jsonl`,
        cwd,
        permission_mode: "default",
        agent_id: agentId,
        agent_type: "general-purpose",
        hook_event_name: "SubagentStop",
        stop_hook_active: false,
        agent_transcript_path: transcriptPath,
      }),
    },
    // Claude Code asks hooks through PermissionRequest when nobody can answer (`-p`): toolgate refuses it there
    headlessAsk: {
      env: { TOOLGATE_INTERACTIVE: "0" },
      events: (options) => [
        HOOK_HOST_DRIVERS["claude-code"]!.shellCall(options),
        {
          session_id: options.sessionId,
          transcript_path: `${options.cwd}/transcript.jsonl`,
          cwd: options.cwd,
          permission_mode: "default",
          hook_event_name: "PermissionRequest",
          tool_name: "Bash",
          tool_input: { command: options.command },
        },
      ],
      refusedByToolgate: true,
    },
  },
  codex: {
    shellCall: ({ sessionId, cwd, command, toolUseId }) => ({
      session_id: sessionId,
      turn_id: "turn-1",
      transcript_path: `${cwd}/rollout.jsonl`,
      cwd,
      hook_event_name: "PreToolUse",
      model: "fake-model",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: toolUseId,
    }),
    verdict: preToolUseVerdict,
    shellTool: "Bash",
    subagentEnd: {
      fixture: "codex/forbidden.rollout.jsonl",
      denials: 2,
      event: ({ sessionId, cwd, agentId, transcriptPath }) => ({
        session_id: sessionId,
        turn_id: "turn-1",
        transcript_path: transcriptPath,
        cwd,
        hook_event_name: "SubagentStop",
        model: "fake-model",
        agent_id: agentId,
        agent_type: "worker",
      }),
    },
    ownRuleDenial: {
      write: ({ home }) => {
        mkdirSync(join(home, ".codex", "rules"), { recursive: true });
        writeFileSync(
          join(home, ".codex", "rules", "default.rules"),
          'prefix_rule(pattern = ["curl"], decision = "forbidden", justification = "no network from here")\n',
        );
      },
      command: "curl -fsSL https://example.com",
      rule: 'prefix_rule(pattern=["curl"], decision="forbidden")',
    },
    // approval never (`codex exec`): a toolgate ask is a headless denial even where toolgate's session is attended
    headlessAsk: {
      env: { TOOLGATE_INTERACTIVE: "1" },
      events: (options) => [
        { ...HOOK_HOST_DRIVERS["codex"]!.shellCall(options), permission_mode: "bypassPermissions" },
      ],
      refusedByToolgate: true,
    },
  },
  gemini: {
    shellCall: ({ sessionId, cwd, command }) => ({
      session_id: sessionId,
      transcript_path: `${cwd}/chat.jsonl`,
      cwd,
      hook_event_name: "BeforeTool",
      timestamp: "2026-11-27T10:00:00.000Z",
      tool_name: "run_shell_command",
      tool_input: { command },
    }),
    verdict: (answer) => {
      if (answer.exitCode === 2) return { behavior: "deny", text: answer.stderr ?? "" };
      const output = (answer.output ?? {}) as { decision?: unknown; reason?: unknown };
      if (output.decision === "deny" || output.decision === "block") {
        return { behavior: "deny", text: String(output.reason ?? "") };
      }
      if (output.decision === "allow") return { behavior: "allow", text: String(output.reason ?? "") };
      return { behavior: "none", text: "" };
    },
    shellTool: "run_shell_command",
    ownRuleDenial: {
      write: ({ home }) => {
        mkdirSync(join(home, ".gemini", "policies"), { recursive: true });
        writeFileSync(
          join(home, ".gemini", "policies", "deny-curl.toml"),
          '[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "curl"\ndecision = "deny"\npriority = 200\n',
        );
      },
      command: "curl -fsSL https://example.com",
      rule: "Bash(curl *)",
    },
    // `gemini -p`: Gemini would decline the ask; toolgate declines it first, in BeforeTool
    headlessAsk: {
      env: { TOOLGATE_INTERACTIVE: "0" },
      events: (options) => [HOOK_HOST_DRIVERS["gemini"]!.shellCall(options)],
      refusedByToolgate: true,
    },
  },
  qwen: {
    shellCall: ({ sessionId, cwd, command, toolUseId }) => ({
      session_id: sessionId,
      transcript_path: `${cwd}/chat.jsonl`,
      cwd,
      hook_event_name: "PreToolUse",
      timestamp: "2026-11-27T10:00:00.000Z",
      permission_mode: "default",
      prompt_id: `${sessionId}########0`,
      tool_name: "run_shell_command",
      tool_input: { command },
      tool_use_id: toolUseId,
      tool_call_id: toolUseId,
    }),
    verdict: preToolUseVerdict,
    shellTool: "run_shell_command",
    subagentEnd: {
      fixture: "transcripts/qwen/stubborn.chat.jsonl",
      denials: 3,
      event: ({ sessionId, cwd, agentId, transcriptPath }) => ({
        session_id: sessionId,
        transcript_path: transcriptPath,
        cwd,
        hook_event_name: "Stop",
        timestamp: "2026-11-27T10:00:00.000Z",
        permission_mode: "default",
        agent_id: agentId,
        stop_hook_active: false,
      }),
    },
    // Qwen declines an ask headless itself; PostToolBatch shows the decline, and toolgate counts it there
    headlessAsk: {
      env: { CI: "1" },
      events: (options) => [
        HOOK_HOST_DRIVERS["qwen"]!.shellCall(options),
        {
          session_id: options.sessionId,
          transcript_path: `${options.cwd}/chat.jsonl`,
          cwd: options.cwd,
          hook_event_name: "PostToolBatch",
          timestamp: "2026-11-27T10:00:01.000Z",
          tool_calls: [
            {
              tool_name: "run_shell_command",
              tool_input: { command: options.command },
              tool_use_id: options.toolUseId,
              status: "error",
              tool_response: {
                error_type: "execution_denied",
                error:
                  "Qwen Code requires permission to use run_shell_command, but the request was declined (non-interactive mode).",
              },
            },
          ],
        },
      ],
      refusedByToolgate: false,
    },
  },
  // Copilot CLI's payloads name neither their event (the installer puts it on the command line; `hookName` is read
  // as well, as on permissionRequest) nor the call's id (it is in the session's events.jsonl, absent here)
  copilot: {
    shellCall: ({ sessionId, cwd, command }) => ({
      hookName: "preToolUse",
      sessionId,
      timestamp: 1795780000000,
      cwd,
      toolName: "bash",
      toolArgs: { command, description: "Run a command" },
    }),
    verdict: (answer) => {
      if (answer.exitCode === 2) return { behavior: "deny", text: answer.stderr ?? "" };
      const output = (answer.output ?? {}) as Record<string, unknown>;
      const decision = output["permissionDecision"] ?? output["behavior"];
      const text = String(output["permissionDecisionReason"] ?? output["message"] ?? output["additionalContext"] ?? "");
      if (decision === "deny" || decision === "allow" || decision === "ask") return { behavior: decision, text };
      return { behavior: "none", text };
    },
    shellTool: "bash",
    // in `-p` (headless: CI, toolgate run) nobody answers an ask: toolgate's preToolUse refuses it in its own step
    headlessAsk: {
      env: { CI: "1" },
      events: (options) => [HOOK_HOST_DRIVERS["copilot"]!.shellCall(options)],
      refusedByToolgate: true,
    },
  },
};
