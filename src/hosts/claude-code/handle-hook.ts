import type { Effect } from "../../core/effects.js";
import type { CallTokens } from "../../core/events.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import { agentOf, hookCallOf as callOf } from "../common/hook-event-fields.js";
import {
  type HookContext,
  TranscriptChangedError,
  transcriptLinesFor,
  unlessTranscriptChanged,
} from "../common/hook-host.js";
import { jsonObjectOf } from "../common/json-line.js";
import { lifecycleEvent } from "../common/lifecycle-event.js";
import { type CallLine, callLineOf, tokensOfCallLines } from "./claude-call-tokens.js";
import type { ClaudeHookInput } from "./hook-input.js";
import {
  additionalContext,
  type HookAnswer,
  PASS,
  permissionRequestDeny,
  preSkillShellCommandDeny,
  preToolUseDeny,
} from "./hook-output.js";
import { reconcileTranscript } from "./reconcile-transcript.js";
import { findToolUseId } from "./transcript-denials.js";

/** the block type every line a Claude Code transcript reader takes a call from holds */
const TOOL_USE = '"tool_use"';

/** What the hook handler needs beyond the event: the guard session and a bounded transcript reader. */
export type ClaudeHookContext = HookContext;

/** Text that never changes a decision: nudges (and, for calls that go ahead, loop steering). */
function softContext(effects: readonly Effect[], options: { withSteering: boolean }): string {
  const parts = [nudgeOf(effects)?.text ?? ""];
  if (options.withSteering) parts.push(textForModel(effects));
  return parts.filter((part) => part !== "").join("\n");
}

/** The user-facing stop message when the effects abort the run. */
function stopOf(effects: readonly Effect[]): string | undefined {
  return abortOf(effects)?.error;
}

async function preToolUse(
  input: Extract<ClaudeHookInput, { hook_event_name: "PreToolUse" }>,
  context: ClaudeHookContext,
) {
  // Claude Code prompts for asks itself (or, headless, fires PermissionRequest, where toolgate counts the denial)
  const result = await context.session.decide(callOf(input, input.tool_use_id), {
    ...agentOf(input),
    ...(input.permission_mode === undefined ? {} : { mode: input.permission_mode }),
    hostAsks: true,
  });
  const denied = result.decision.behavior === "deny";
  // an abort (the first, or the same one repeated for a call made after it) stops the run
  const stop = stopOf(result.effects);
  const soft = softContext(result.effects, { withSteering: !denied });
  if (denied) {
    const reason = result.text !== "" ? result.text : result.decision.reason;
    return preToolUseDeny({
      reason,
      ...(soft === "" ? {} : { additionalContext: soft }),
      ...(stop === undefined ? {} : { stop }),
    });
  }
  // allow or ask: Claude Code decides (its own prompt, or PermissionRequest in a headless run). Never answer allow.
  if (soft === "" && stop === undefined) return PASS;
  return additionalContext({ event: "PreToolUse", text: soft, ...(stop === undefined ? {} : { stop }) });
}

/** The id a skill's shell command is recorded under: Claude Code's own id (it names no transcript call), labelled. */
export const SKILL_SHELL_ID_PREFIX = "skill-shell:";

/**
 * A skill's inline shell command, decided like any other shell call (the same rules, counts and threshold) and
 * recorded under the shell tool Claude Code names with the id `skill-shell:<its id>`. Nobody can answer an ask
 * here (Claude Code refuses a skill's command a hook asks about), so an ask a rule made is a headless denial; an
 * ask no rule made stays Claude Code's own check. Claude Code reports no outcome for these commands.
 */
async function preSkillShellCommand(
  input: Extract<ClaudeHookInput, { hook_event_name: "PreSkillShellCommand" }>,
  context: ClaudeHookContext,
): Promise<HookAnswer> {
  const call = callOf(input, `${SKILL_SHELL_ID_PREFIX}${input.tool_use_id}`);
  const result = await context.session.decide(call, {
    ...agentOf(input),
    ...(input.permission_mode === undefined ? {} : { mode: input.permission_mode }),
    hostAsks: true,
    cannotAsk: true,
  });
  const stop = stopOf(result.effects);
  if (result.decision.behavior === "deny") {
    const reason = result.text !== "" ? result.text : result.decision.reason;
    return preSkillShellCommandDeny({ reason, ...(stop === undefined ? {} : { stop }) });
  }
  // an allow adds nothing (Claude Code runs the command unless a hook refuses it); no context field to steer with
  return stop === undefined ? PASS : { output: { continue: false, stopReason: stop }, exitCode: 0 };
}

async function permissionRequest(
  input: Extract<ClaudeHookInput, { hook_event_name: "PermissionRequest" }>,
  context: ClaudeHookContext,
): Promise<HookAnswer> {
  if (context.interactive) return PASS; // the person answers; PostToolUse or the transcript tells the outcome
  const toolUseId =
    (input.transcript_path === undefined ? undefined : toolUseIdIn(context, input.transcript_path, input)) ??
    // never derived from the input (it may hold a secret): a fresh id for a call the transcript does not show yet
    `permission-request:${input.tool_name}:${globalThis.crypto.randomUUID()}`;
  const effects = await context.session.denied(callOf(input, toolUseId), {
    source: "headless",
    reason: `Claude Code asks before running this ${input.tool_name} call, and nobody can answer in this non-interactive session.`,
    ...agentOf(input),
  });
  const stop = stopOf(effects);
  const text = textForModel(effects);
  const message =
    text !== ""
      ? text
      : `${input.tool_name} needs approval, and this session is non-interactive, so it was denied. Do not retry it.`;
  // An abort interrupts the run: Claude Code ends with an error result and exit code 1.
  return permissionRequestDeny({ message, ...(stop === undefined ? {} : { interrupt: true, stop }) });
}

async function afterTool(input: ClaudeHookInput, context: ClaudeHookContext): Promise<HookAnswer> {
  let effects: Effect[] = [];
  if (input.hook_event_name === "PostToolUse") {
    // the guard classifies the output once: a call whose output shows an OS or sandbox refusal counts as one
    const output = outputText(input.tool_response);
    effects = await context.session.succeeded(callOf(input, input.tool_use_id), {
      ...agentOf(input),
      ...(output === "" ? {} : { output }),
    });
  } else if (input.hook_event_name === "PostToolUseFailure") {
    effects = await context.session.failed(callOf(input, input.tool_use_id), {
      error: input.error,
      ...exitCodeOf(input.error),
      ...agentOf(input),
    });
  }
  const text = softContext(effects, { withSteering: true });
  const stop = stopOf(effects);
  if (text === "" && stop === undefined) return PASS;
  return additionalContext({ event: input.hook_event_name, text, ...(stop === undefined ? {} : { stop }) });
}

function outputText(response: unknown): string {
  if (typeof response === "string") return response;
  if (typeof response !== "object" || response === null) return "";
  const { stdout, stderr } = response as { stdout?: unknown; stderr?: unknown };
  return [stdout, stderr].filter((part): part is string => typeof part === "string" && part !== "").join("\n");
}

function exitCodeOf(error: string): { exitCode?: number } {
  const match = /^Exit code (\d+)/.exec(error);
  return match === null ? {} : { exitCode: Number(match[1]) };
}

/** Handles one Claude Code hook event against a guard session and returns the answer to print. */
export async function handleClaudeHook(input: ClaudeHookInput, context: ClaudeHookContext): Promise<HookAnswer> {
  switch (input.hook_event_name) {
    case "PreToolUse":
      return preToolUse(input, context);
    case "PermissionRequest":
      return permissionRequest(input, context);
    case "PreSkillShellCommand":
      return preSkillShellCommand(input, context);
    case "PostToolUse":
    case "PostToolUseFailure":
      return afterTool(input, context);
    case "PermissionDenied": {
      // Never `retry`. Since Claude Code 2.1.331 `retry: true` tells the model to make the refused call again if
      // the user asked for it (one more try, through the same auto-mode check); before, that it may retry. Either
      // way it invites the call again, which only a person may do. A refused retry (a new tool_use_id, the same
      // call) is one more denial here, in the same streaks and loop window as the first.
      const effects = await context.session.denied(callOf(input, input.tool_use_id), {
        source: "classifier",
        reason: input.reason,
        decisionReasonType: "classifier",
        ...agentOf(input),
      });
      const stop = stopOf(effects);
      return stop === undefined ? PASS : { output: { continue: false, stopReason: stop }, exitCode: 0 };
    }
    case "SubagentStop": {
      // a subagent's own transcript: its denials under its id, and its calls' tokens (the session's transcript does
      // not show them)
      const callLines = new Map<string, CallLine>();
      const path = input.agent_transcript_path;
      await lifecycleEvent(context.session, {
        name: input.hook_event_name,
        agentId: input.agent_id,
        reconcile: () => reconcileTranscript({ context, path, agentId: input.agent_id, callLines }),
        callTokens: async (pending) => transcriptCallTokens(context, path, pending, callLines),
      });
      return PASS;
    }
    case "SubagentStart":
      await lifecycleEvent(context.session, {
        name: input.hook_event_name,
        agentId: input.agent_id,
        agentType: input.agent_type,
      });
      return PASS;
    case "UserPromptSubmit":
      await lifecycleEvent(context.session, { name: input.hook_event_name, prompt: input.prompt, project: input.cwd });
      return PASS;
    case "SessionStart":
    case "Stop":
    case "SessionEnd": {
      const callLines = new Map<string, CallLine>();
      const path = input.transcript_path;
      await lifecycleEvent(context.session, {
        name: input.hook_event_name,
        reconcile: () => reconcileTranscript({ context, path, callLines }),
        callTokens: async (pending) => transcriptCallTokens(context, path, pending, callLines),
      });
      return PASS;
    }
  }
}

/**
 * The tokens per call the session's transcript records (assistant messages' `usage`), for wasted tokens, counted as
 * `toolgate analyze` counts them (claude-call-tokens.ts) over the lines the waiting calls came from: those the same
 * event's reconcile read already (`known`, by call id: a first Stop that records dozens of refusals does not search
 * the transcript for them again), and for the others, the lines that hold a `"tool_use"` block (the only lines a call
 * comes from) and name one. Undefined when those must be searched and the transcript cannot be read.
 */
function transcriptCallTokens(
  context: ClaudeHookContext,
  path: string | undefined,
  only: readonly string[],
  known: ReadonlyMap<string, CallLine>,
): CallTokens | undefined {
  const lines: CallLine[] = [];
  const unknown: string[] = [];
  for (const id of only) {
    const line = known.get(id);
    if (line === undefined) unknown.push(id);
    else lines.push(line);
  }
  if (unknown.length > 0) {
    const searched = path === undefined ? undefined : callLinesNaming(context, path, unknown);
    if (searched === undefined) return undefined;
    lines.push(...searched);
  }
  return tokensOfCallLines(lines);
}

/** The call lines of the transcript's lines that name one of `ids`; undefined when it cannot be read. */
function callLinesNaming(context: ClaudeHookContext, path: string, ids: readonly string[]): CallLine[] | undefined {
  return unlessTranscriptChanged(() => {
    const transcript = transcriptLinesFor(context, path);
    if (transcript === undefined) return undefined;
    const lines: CallLine[] = [];
    for (const { line, at } of transcript.linesWith(ids)) {
      if (!line.includes(TOOL_USE)) continue;
      const call = callLineOf(jsonObjectOf(line), at);
      if (call !== undefined) lines.push(call);
    }
    return lines;
  });
}

/**
 * The id of the newest tool_use for this call in the transcript, searched back from its end (only the lines searched
 * are read); undefined when the transcript shows none or cannot be read (also when it was cut while it was read).
 */
function toolUseIdIn(
  context: ClaudeHookContext,
  path: string,
  input: { tool_name: string; tool_input: unknown },
): string | undefined {
  const transcript = context.openTranscript?.(path) ?? context.readTranscript(path);
  if (transcript === undefined) return undefined;
  try {
    return findToolUseId({ transcript, tool: input.tool_name, input: input.tool_input });
  } catch (error) {
    if (error instanceof TranscriptChangedError) return undefined;
    throw error;
  }
}
