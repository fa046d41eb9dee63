import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { recognizeMcpRefusal } from "../../detect/recognize-mcp-refusal.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import type { McpQuestion } from "./grant-elicitation.js";
import { mcpToolName } from "./mcp-tool-name.js";
import { denialToolResult, toolResultText, withGuidance } from "./mcp-tool-result.js";

export interface GuardMcpToolCallOptions {
  session: GuardSession;
  /** the server's name as the client knows it (`fs` in `mcp__fs__write_file`) */
  server: string;
  /** the `tools/call` params: the tool's own name and its arguments */
  params: { name: string; arguments?: Record<string, unknown> | undefined };
  /** unique within the session (the proxy numbers the calls) */
  callId: string;
  /** sends the call to the real server, unchanged; its result comes back unchanged unless it is a refusal */
  forward(): Promise<CallToolResult>;
  /** asks the person (an MCP elicitation); absent when the client cannot show one */
  ask?: (question: McpQuestion) => Promise<boolean>;
  /** told once when toolgate stops the session (headless escalation); later calls are refused with the same text */
  onAbort?: (error: string) => void;
}

/**
 * One `tools/call` through toolgate. toolgate's policy and loop detector decide first (an earlier abort, a deny rule,
 * a loop block refuse the call without reaching the server); an `ask` rule asks the person through an elicitation
 * when the client supports one (headless: a denial); an `ask` only by default (no rule matched) is left to the
 * client, which approved the call before sending it (and, not being toolgate's allow, ends no denial streak). A denial becomes an `isError` result carrying toolgate's
 * guidance; at the threshold an interactive session is offered the minimum-scope grant (an elicitation) and a yes
 * runs the call. The server's own `isError` results that are permission refusals count as denials, and the server's
 * text is kept with the guidance after it. An internal error refuses the call (fail closed).
 */
export async function guardMcpToolCall(options: GuardMcpToolCallOptions): Promise<CallToolResult> {
  const { session } = options;
  const call: ToolCall = {
    toolUseId: options.callId,
    tool: mcpToolName(options.server, options.params.name),
    input: options.params.arguments ?? {},
  };
  let decided: Awaited<ReturnType<GuardSession["decide"]>>;
  try {
    decided = await session.decide(call, { hostAsks: true });
  } catch (error) {
    return denialToolResult(failClosedText(error, "mcp-proxy"));
  }
  const { decision } = decided;
  if (decision.behavior === "deny") {
    return escalate(options, call, { effects: decided.effects, reason: decision.reason });
  }
  if (decision.behavior === "ask" && decision.source !== "default") {
    const approved = options.ask === undefined ? false : await askSafely(options.ask, approveQuestion(call, decision));
    if (!approved) {
      const source = options.ask === undefined ? "headless" : "user";
      const reason =
        options.ask === undefined
          ? `${decision.reason} Nobody can answer here: the MCP client does not support elicitation.`
          : `The person declined ${call.tool}.`;
      const effects = await session.denied(call, {
        source,
        reason,
        ...(decision.rule === undefined ? {} : { rule: decision.rule }),
      });
      return escalate(options, call, { effects, reason });
    }
    await session.allowed(call);
  }
  return runOnServer(options, call);
}

async function runOnServer(options: GuardMcpToolCallOptions, call: ToolCall): Promise<CallToolResult> {
  const result = await options.forward();
  if (result.isError !== true) {
    await options.session.succeeded(call);
    return result;
  }
  const text = toolResultText(result);
  const refusal = recognizeMcpRefusal({ tool: call.tool, text });
  const effects = await options.session.failed(call, {
    error: text,
    ...(refusal === undefined ? {} : { osDenial: refusal }),
  });
  noteAbort(options, effects);
  return withGuidance(result, modelText(effects));
}

/** A denial's effects: ask for the grant when one is offered and someone can answer, else refuse with guidance. */
async function escalate(
  options: GuardMcpToolCallOptions,
  call: ToolCall,
  denial: { effects: Effect[]; reason: string },
): Promise<CallToolResult> {
  let effects = denial.effects;
  const offer = effects.find((effect) => effect.type === "offer-grant");
  if (offer !== undefined && options.ask !== undefined) {
    const accepted = await askSafely(options.ask, { kind: "grant", message: offer.question });
    const answered = await options.session.answerGrant(offer.offerId, accepted);
    if (accepted) return runOnServer(options, call);
    effects = [...effects, ...answered];
  }
  noteAbort(options, effects);
  const guidance = modelText(effects);
  return denialToolResult(guidance === "" ? denial.reason : guidance);
}

/** A question that fails (the client went away, a malformed answer) is a no. */
async function askSafely(ask: (question: McpQuestion) => Promise<boolean>, question: McpQuestion): Promise<boolean> {
  try {
    return (await ask(question)) === true;
  } catch {
    return false;
  }
}

function approveQuestion(call: ToolCall, decision: { reason: string; rule?: string }): McpQuestion {
  const rule = decision.rule === undefined ? "" : ` (toolgate rule ${decision.rule})`;
  return { kind: "approve", message: `Allow ${call.tool}${rule}? ${decision.reason}`.trim() };
}

/** Guidance, fallback/skip/abort texts and loop steering, then a nudge: the proxy has no other channel to the model. */
function modelText(effects: readonly Effect[]): string {
  const nudge = nudgeOf(effects);
  return [textForModel(effects), nudge?.text ?? ""].filter((part) => part !== "").join("\n");
}

function noteAbort(options: GuardMcpToolCallOptions, effects: readonly Effect[]): void {
  const abort = abortOf(effects);
  if (abort !== undefined && abort.repeat !== true) options.onAbort?.(abort.error);
}
