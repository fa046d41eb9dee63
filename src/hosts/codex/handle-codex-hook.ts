import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { HookAnswer, HookContext } from "../common/hook-host.js";
import type { CodexHookInput, CodexPostToolUseInput, CodexPreToolUseInput } from "./codex-hook-input.js";
import { additionalContext, PASS, preToolUseDeny } from "./codex-hook-output.js";
import { commandArgvs, shellCommandOf } from "./command-argvs.js";
import {
  describeExecpolicyRule,
  type ExecpolicyRule,
  matchExecpolicy,
  type ParsedExecpolicy,
} from "./execpolicy-rules.js";
import { reconcileRollout } from "./reconcile-rollout.js";

/** What the Codex handler needs besides the hook context: Codex's own execpolicy rules for the event's project. */
export interface CodexHookContext extends HookContext {
  execpolicy: ParsedExecpolicy;
}

/** `permission_mode` Codex sends when its approval policy is `never` (every `codex exec`): nobody answers prompts. */
const APPROVAL_NEVER = "bypassPermissions";

function callOf(input: { tool_name: string; tool_input: unknown; tool_use_id: string }): ToolCall {
  return { toolUseId: input.tool_use_id, tool: input.tool_name, input: input.tool_input };
}

function agentOf(input: CodexHookInput): { agentId?: string } {
  return input.agent_id === undefined ? {} : { agentId: input.agent_id };
}

function nudgeText(effects: readonly Effect[]): string {
  return nudgeOf(effects)?.text ?? "";
}

function join(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

/** The deny answer for effects of a refused call: toolgate's guidance (or the host's reason) and any nudge. */
function denyWith(effects: readonly Effect[], fallback: string): HookAnswer {
  const text = textForModel(effects);
  return preToolUseDeny({ reason: text !== "" ? text : fallback, additionalContext: nudgeText(effects) });
}

function codexRuleReason(rule: ExecpolicyRule, headless: boolean): string {
  const why = rule.justification === undefined ? "" : `: ${rule.justification}`;
  if (rule.decision === "forbidden")
    return `Codex's rule ${describeExecpolicyRule(rule)} (${rule.source}) forbids this command${why}`;
  return headless
    ? `Codex's rule ${describeExecpolicyRule(rule)} (${rule.source}) needs approval, and approval is set to never in this run, so nobody can approve it${why}`
    : `Codex's rule ${describeExecpolicyRule(rule)} (${rule.source}) asks before running this command${why}`;
}

async function codexRuleDenial(options: {
  input: CodexPreToolUseInput;
  context: CodexHookContext;
  rule: ExecpolicyRule;
  headless: boolean;
}): Promise<HookAnswer> {
  const { input, rule, headless } = options;
  const reason = codexRuleReason(rule, headless);
  const effects = await options.context.session.denied(callOf(input), {
    source: rule.decision === "forbidden" ? "rule" : "headless",
    reason,
    rule: describeExecpolicyRule(rule),
    ...agentOf(input),
  });
  return denyWith(effects, reason);
}

async function preToolUse(input: CodexPreToolUseInput, context: CodexHookContext): Promise<HookAnswer> {
  // refusals Codex made since the last event (its own rules toolgate could not read, built-in refusals, sandbox)
  await reconcileRollout({ context, path: input.transcript_path, ...agentOf(input) });
  const call = callOf(input);
  const headless = input.permission_mode === APPROVAL_NEVER || !context.interactive;
  // the earlier abort, the loop detector and toolgate's own policy, in one step; Codex prompts for asks itself
  const result = await context.session.decide(call, { ...agentOf(input), hostAsks: true });
  if (result.decision.behavior === "deny") {
    return preToolUseDeny({
      reason: result.text !== "" ? result.text : result.decision.reason,
      additionalContext: nudgeText(result.effects),
    });
  }
  // Codex's own execpolicy: where Codex would reject the command, deny first, with toolgate's guidance
  const command = shellCommandOf(input.tool_name, input.tool_input);
  const rule = command === undefined ? undefined : matchExecpolicy(context.execpolicy.rules, commandArgvs(command));
  if (rule?.decision === "forbidden") return codexRuleDenial({ input, context, rule, headless });
  // an ask from a rule of toolgate's policy cannot be answered under approval never: a headless denial. toolgate's
  // default (no rule matched) is not a rule: Codex decides then, as it would without toolgate (its sandbox applies)
  const askedByRule = result.decision.behavior === "ask" && result.decision.rule !== undefined;
  if (askedByRule && headless) {
    const effects = await context.session.denied(call, {
      source: "headless",
      reason: `toolgate's policy asks before this ${input.tool_name} call (${result.decision.reason}), and approval is set to never in this Codex run, so nobody can approve it.`,
      ...(result.decision.rule === undefined ? {} : { rule: result.decision.rule }),
      ...agentOf(input),
    });
    return denyWith(effects, "This call needs approval and nobody can answer in this run. Do not retry it.");
  }
  if (rule?.decision === "prompt" && headless) return codexRuleDenial({ input, context, rule, headless });
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
      await context.session.turnStarted();
      return PASS;
    case "SessionStart":
      return PASS;
    case "SubagentStart":
      await context.session.subagentStarted(input.agent_id, input.agent_type ? { agentType: input.agent_type } : {});
      return PASS;
    case "SubagentStop":
      await reconcileRollout({ context, path: input.transcript_path, agentId: input.agent_id });
      await context.session.subagentStopped(input.agent_id);
      return PASS;
    case "Stop":
      await reconcileRollout({ context, path: input.transcript_path, ...agentOf(input) });
      await context.session.turnEnded({ outcome: "completed" });
      return PASS;
    case "SessionEnd":
      await reconcileRollout({ context, path: input.transcript_path });
      await context.session.end();
      return PASS;
  }
}
