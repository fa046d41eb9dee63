import type { HookCallback, HookCallbackMatcher, HookEvent, HookJSONOutput } from "@anthropic-ai/claude-agent-sdk";
import type { Effect } from "../../core/effects.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import { agentOf } from "../common/hook-event-fields.js";
import { markDecided, markDenied, wasDenied } from "./decided-calls.js";

type Payload = Record<string, unknown>;

function callOf(input: Payload) {
  return { toolUseId: String(input.tool_use_id), tool: String(input.tool_name), input: input.tool_input };
}

function stopOutput(effects: readonly Effect[]): HookJSONOutput {
  const abort = abortOf(effects);
  return abort === undefined ? {} : { continue: false, stopReason: abort.error };
}

function contextOutput(event: "PreToolUse" | "PostToolUse" | "PostToolUseFailure", text: string): HookJSONOutput {
  return text === "" ? {} : { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
}

/**
 * `Options.hooks` for the Agent SDK, feeding one guard session: PreToolUse runs toolgate's policy and loop detector
 * (deny first with guidance), PostToolUse/PostToolUseFailure count successes and failures (OS-level denials are
 * classified by the guard) and send nudges as additionalContext, PermissionDenied records classifier denials,
 * UserPromptSubmit/Stop mark turns, SubagentStart/SubagentStop attribute calls, SessionEnd flushes.
 * Use with `guardCanUseTool` on the same session: each call is decided once.
 */
export function guardHooks(session: GuardSession): Partial<Record<HookEvent, HookCallbackMatcher[]>> {
  const preToolUse: HookCallback = async (raw) => {
    const input = raw as unknown as Payload;
    const call = callOf(input);
    try {
      markDecided(session, call.toolUseId);
      const decided = await session.decide(call, agentOf(input));
      const nudge = nudgeOf(decided.effects)?.text ?? "";
      if (decided.decision.behavior !== "deny") {
        return {
          ...contextOutput("PreToolUse", [nudge, textForModel(decided.effects)].filter(Boolean).join("\n")),
          ...stopOutput(decided.effects),
        };
      }
      markDenied(session, call.toolUseId);
      return {
        ...stopOutput(decided.effects),
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: decided.text === "" ? decided.decision.reason : decided.text,
          ...(nudge === "" ? {} : { additionalContext: nudge }),
        },
      };
    } catch (error) {
      return {
        hookSpecificOutput: {
          hookEventName: "PreToolUse",
          permissionDecision: "deny",
          permissionDecisionReason: failClosedText(error, "PreToolUse"),
        },
      };
    }
  };

  const after =
    (event: "PostToolUse" | "PostToolUseFailure"): HookCallback =>
    async (raw) => {
      const input = raw as unknown as Payload;
      const call = callOf(input);
      const effects =
        event === "PostToolUse"
          ? await session.succeeded(call, { ...agentOf(input), ...outputOf(input.tool_response) })
          : await session.failed(call, { error: String(input.error ?? ""), ...agentOf(input) });
      const text = [nudgeOf(effects)?.text ?? "", textForModel(effects)].filter(Boolean).join("\n");
      return { ...contextOutput(event, text), ...stopOutput(effects) };
    };

  const permissionDenied: HookCallback = async (raw) => {
    const input = raw as unknown as Payload;
    const call = callOf(input);
    if (wasDenied(session, call.toolUseId)) return {};
    markDenied(session, call.toolUseId);
    const effects = await session.denied(call, {
      source: "classifier",
      reason: String(input.reason ?? "blocked by the auto-mode classifier"),
      decisionReasonType: "classifier",
      ...agentOf(input),
    });
    // never `retry` (Claude Code 2.1.331+: the model makes the call again, through the same check, if the user
    // asked for it): an invitation to repeat a refused call is not toolgate's to give
    return stopOutput(effects);
  };

  const simple =
    (run: (input: Payload) => Promise<Effect[]>): HookCallback =>
    async (raw) =>
      stopOutput(await run(raw as unknown as Payload));

  const one = (hook: HookCallback, matcher?: string): HookCallbackMatcher[] => [
    matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] },
  ];
  return {
    PreToolUse: one(preToolUse, "*"),
    PostToolUse: one(after("PostToolUse"), "*"),
    PostToolUseFailure: one(after("PostToolUseFailure"), "*"),
    PermissionDenied: one(permissionDenied, "*"),
    UserPromptSubmit: one(simple(() => session.turnStarted())),
    Stop: one(simple(() => session.turnEnded({ outcome: "completed" }))),
    SubagentStart: one(
      simple((input) =>
        session.subagentStarted(
          String(input.agent_id),
          typeof input.agent_type === "string" ? { agentType: input.agent_type } : {},
        ),
      ),
    ),
    SubagentStop: one(simple((input) => session.subagentStopped(String(input.agent_id)))),
    SessionEnd: one(simple(() => session.end())),
  };
}

/** The text of a tool's response, for the guard's OS-denial classifier (a refusal in the output counts as one). */
function outputOf(response: unknown): { output?: string } {
  if (typeof response === "string") return response === "" ? {} : { output: response };
  if (typeof response !== "object" || response === null) return {};
  const { stdout, stderr } = response as { stdout?: unknown; stderr?: unknown };
  const output = [stdout, stderr].filter((part): part is string => typeof part === "string" && part !== "").join("\n");
  return output === "" ? {} : { output };
}
