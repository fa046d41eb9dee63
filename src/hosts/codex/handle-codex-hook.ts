import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import { callTokensIn } from "../common/call-tokens.js";
import { agentOf, hookCallOf } from "../common/hook-event-fields.js";
import {
  type HookAnswer,
  type HookContext,
  TranscriptChangedError,
  transcriptDenialCalls,
} from "../common/hook-host.js";
import { lifecycleEvent } from "../common/lifecycle-event.js";
import type { CodexHookInput, CodexPostToolUseInput, CodexPreToolUseInput } from "./codex-hook-input.js";
import { additionalContext, PASS, preToolUseDeny } from "./codex-hook-output.js";
import { reconcileRollout, rolloutSinceLastEvent } from "./reconcile-rollout.js";

/** What the Codex handler needs: the hook context (Codex's own `.rules` are in the session's policy). */
export type CodexHookContext = HookContext;

/** `permission_mode` Codex sends when its approval policy is `never` (every `codex exec`): nobody answers prompts. */
const APPROVAL_NEVER = "bypassPermissions";

/**
 * The call as toolgate decides it. A call Codex runs in another folder than the session's (a shell call's `workdir`,
 * which Codex sends as the hook's `cwd`) carries that folder as `workdir`, so its relative paths are read there.
 */
function callOf(input: {
  tool_name: string;
  tool_input: unknown;
  tool_use_id: string;
  cwd?: string;
  session_root?: string;
}): ToolCall {
  const { cwd, session_root: root } = input;
  const toolInput = input.tool_input;
  const elsewhere =
    root !== undefined &&
    cwd !== undefined &&
    cwd !== root &&
    typeof toolInput === "object" &&
    toolInput !== null &&
    !Array.isArray(toolInput) &&
    !("workdir" in toolInput);
  return hookCallOf(
    elsewhere ? { ...input, tool_input: { ...(toolInput as Record<string, unknown>), workdir: cwd } } : input,
    input.tool_use_id,
  );
}

function nudgeText(effects: readonly Effect[]): string {
  return nudgeOf(effects)?.text ?? "";
}

function join(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

/**
 * One PreToolUse, one reducer step, one state transaction. The session's policy is toolgate's rules, the Claude
 * Code settings and Codex's own `.rules` (forbidden = deny, prompt = ask, allow = allow; stricter wins), so a call
 * Codex's rules forbid is denied here first, with toolgate's guidance, and recorded with the Codex rule.
 *
 * Codex's own refusals since the last event (PostToolUse never fires for them) are counted in the same
 * transaction, before the call (`earlierDenials`), rather than only at Stop: a model that retries what Codex
 * refused itself reaches the threshold within the turn, and the call's answer already carries the escalation.
 *
 * Under approval never (`bypassPermissions`, every `codex exec`), or in a toolgate session nobody answers, an ask
 * from a rule (toolgate's or Codex's `prompt`) cannot be answered: the guard makes it a headless denial in the same
 * step (`cannotAsk`). An ask no rule made (toolgate's defaults) is left to Codex, which decides it as it would
 * without toolgate (its sandbox applies). toolgate never answers allow.
 */
async function preToolUse(input: CodexPreToolUseInput, context: CodexHookContext): Promise<HookAnswer> {
  const headless = input.permission_mode === APPROVAL_NEVER || !context.interactive;
  // the refusals Codex made that its rollout shows (rules toolgate could not read, built-in refusals, sandbox)
  const rollout = rolloutSinceLastEvent(context, input.transcript_path);
  const result = await context.session.decide(callOf(input), {
    ...agentOf(input),
    hostAsks: true,
    cannotAsk: headless,
    earlierDenials: transcriptDenialCalls(rollout.denials, input.agent_id),
  });
  // a fail-closed answer (internal) may not have recorded them: the next event reads the same lines again
  if (result.decision.denialSource !== "internal") rollout.recorded();
  if (result.decision.behavior === "deny") {
    return preToolUseDeny({
      reason: result.text !== "" ? result.text : result.decision.reason,
      additionalContext: nudgeText(result.effects),
    });
  }
  // allowed (or an ask Codex will put to a person): soft text only, never an allow answer
  return additionalContext({
    event: "PreToolUse",
    text: join(nudgeText(result.effects), textForModel(result.effects)),
  });
}

function outputText(response: unknown): string {
  if (typeof response === "string") return response;
  if (typeof response !== "object" || response === null) return "";
  const { stdout, stderr, output } = response as { stdout?: unknown; stderr?: unknown; output?: unknown };
  return [output, stdout, stderr].filter((part): part is string => typeof part === "string" && part !== "").join("\n");
}

async function postToolUse(input: CodexPostToolUseInput, context: CodexHookContext): Promise<HookAnswer> {
  // the guard classifies the output once: "Read-only file system", EACCES, a blocked network count as sandbox denials
  const output = outputText(input.tool_response);
  const effects = await context.session.succeeded(callOf(input), {
    ...agentOf(input),
    ...(output === "" ? {} : { output }),
  });
  const stop = abortOf(effects);
  return additionalContext({
    event: "PostToolUse",
    text: join(nudgeText(effects), textForModel(effects), stop === undefined ? "" : stop.error),
  });
}

/** Handles one Codex hook event against a guard session and returns the answer to print. */
export async function handleCodexHook(input: CodexHookInput, context: CodexHookContext): Promise<HookAnswer> {
  switch (input.hook_event_name) {
    case "PreToolUse":
      return preToolUse(input, context);
    case "PostToolUse":
      return postToolUse(input, context);
    case "PermissionRequest":
      // an approval prompt a person answers (Codex 0.169.0 does not fire it under approval never)
      return PASS;
    case "UserPromptSubmit":
    case "SessionStart":
    case "SubagentStart":
    case "SubagentStop":
    case "Stop":
    case "SessionEnd": {
      // the rollout is the session's: a subagent's (or a turn's agent's) refusals are filed under its id
      const agent = input.hook_event_name === "SessionEnd" ? {} : agentOf(input);
      await lifecycleEvent(context.session, {
        name: input.hook_event_name,
        ...agent,
        ...("agent_type" in input && input.agent_type ? { agentType: input.agent_type } : {}),
        ...(input.hook_event_name === "UserPromptSubmit" ? { prompt: input.prompt, project: input.cwd } : {}),
        reconcile: () => reconcileRollout({ context, path: input.transcript_path, ...agent }),
        callTokens: () => rolloutCallTokens(context, input.transcript_path),
      });
      return PASS;
    }
  }
}

/** the tokens per call the rollout records (`token_count` events, shared among the calls of a request) */
async function rolloutCallTokens(context: HookContext, path: string | null | undefined) {
  if (path === undefined || path === null || path === "") return undefined;
  // its lines, so the lines the reader skips by their bytes (most events) are never decoded
  const rollout = context.openTranscript?.(path) ?? context.readTranscript(path);
  if (rollout === undefined) return undefined;
  const format = (await import("./codex-rollout.js")).codexRollout;
  try {
    return callTokensIn(format, rollout);
  } catch (error) {
    // the rollout was replaced or cut while it was read: as if unreadable
    if (error instanceof TranscriptChangedError) return undefined;
    throw error;
  }
}
