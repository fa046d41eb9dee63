import type { HookAnswer } from "../../src/hosts/common/hook-host.js";

/**
 * What the host contract suite needs to speak to one command-hook host: the host's own gating event for a shell
 * call, and how to read the host's answer. One entry per registered hook host: the suite fails for a hook host that
 * has none, so a new host cannot land without being driven through the contract.
 */
export interface HookHostDriver {
  /** the event the host sends before it runs a shell command (its own field names and tool name) */
  shellCall(options: { sessionId: string; cwd: string; command: string; toolUseId: string }): Record<string, unknown>;
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
}

/** Claude Code, Codex and Qwen Code answer a PreToolUse with `hookSpecificOutput.permissionDecision`. */
function preToolUseVerdict(answer: HookAnswer): ReturnType<HookHostDriver["verdict"]> {
  if (answer.exitCode === 2) return { behavior: "deny", text: answer.stderr ?? "" };
  const output = (answer.output ?? {}) as { hookSpecificOutput?: Record<string, unknown> };
  const specific = output.hookSpecificOutput ?? {};
  const decision = specific["permissionDecision"];
  const text = String(specific["permissionDecisionReason"] ?? specific["additionalContext"] ?? "");
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
  },
};
