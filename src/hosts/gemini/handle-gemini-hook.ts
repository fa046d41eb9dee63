import type { Effect } from "../../core/effects.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import { callTokensIn, transcriptNaming, wantedCallTokens } from "../common/call-tokens.js";
import {
  type HookContext,
  recordTranscriptDenials,
  transcriptLinesFor,
  unlessTranscriptChanged,
} from "../common/hook-host.js";
import { isOwnCallId } from "./gemini-call-id.js";
import type { GeminiAfterToolInput, GeminiBeforeToolInput, GeminiHookInput } from "./gemini-hook-input.js";
import { afterToolContext, denyTool, type GeminiHookAnswer, PASS } from "./gemini-hook-output.js";
import { geminiToolCall } from "./gemini-tool-call.js";
import { geminiTranscriptDenials } from "./gemini-transcript-denials.js";

/**
 * The tool's name in toolgate's (Claude Code's) form. Gemini names an MCP tool `mcp_<server>_<tool>`, which cannot
 * be split reliably (both parts may hold `_`); its `mcp_context` names the server and the tool, so the call becomes
 * `mcp__<server>__<tool>`, the form toolgate's rules and imported Gemini `mcpName` rules use.
 */
function toolNameOf(input: { tool_name: string; mcp_context?: unknown }): string {
  const context = input.mcp_context as { server_name?: unknown; tool_name?: unknown } | undefined;
  if (typeof context?.server_name === "string" && typeof context.tool_name === "string") {
    return `mcp__${context.server_name}__${context.tool_name}`;
  }
  return input.tool_name;
}

/** The call as toolgate decides it (a path tool's path as Gemini resolves it: gemini-tool-call.ts). */
function readCall(input: { tool_name: string; tool_input: unknown; mcp_context?: unknown; cwd?: string }) {
  const cwd = typeof input.cwd === "string" ? input.cwd : undefined;
  return geminiToolCall({ tool: toolNameOf(input), input: input.tool_input, cwd });
}

function joinTexts(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== "").join("\n");
}

/**
 * BeforeTool fires before Gemini's own policy check: one BeforeTool, one reducer step, one state transaction.
 * toolgate decides with its rules, Gemini's policies (see `hostPolicyRules`: stricter wins) and the loop detector:
 * a deny is answered first, with toolgate's guidance as the reason the model reads. In a headless run an ask from
 * an explicit rule is one Gemini would decline, so the guard makes it a headless denial in the same step
 * (`cannotAsk`) and toolgate declines it first; an ask no rule made is left to Gemini, as is everything else
 * (toolgate never answers allow). A file tool's path is decided as Gemini resolves it (gemini-tool-call.ts); a call
 * whose path cannot be read so is refused (a validation refusal).
 */
async function beforeTool(input: GeminiBeforeToolInput, context: HookContext): Promise<GeminiHookAnswer> {
  const { call, unreadable } = readCall(input);
  if (unreadable !== undefined) {
    // what toolgate cannot read, it cannot check: refused, and counted as a refusal
    const reason = `[toolgate] toolgate cannot read the input of this ${call.tool} call (${unreadable}), so it is refused. Call the tool with the input its schema describes.`;
    const effects = await context.session.denied(call, { source: "validation", reason });
    const stop = abortOf(effects)?.error;
    return denyTool({ reason: joinTexts(reason, nudgeOf(effects)?.text), ...(stop === undefined ? {} : { stop }) });
  }
  const result = await context.session.decide(call, { hostAsks: true, cannotAsk: !context.interactive });
  const { effects } = result;
  const stop = abortOf(effects)?.error;
  if (result.decision.behavior !== "deny") {
    // an allowed call: nothing to tell the model before it runs; an earlier abort still ends the run
    return stop === undefined ? PASS : denyTool({ reason: stop, stop });
  }
  const reason = result.text !== "" ? result.text : result.decision.reason;
  return denyTool({ reason: joinTexts(reason, nudgeOf(effects)?.text), ...(stop === undefined ? {} : { stop }) });
}

/** The text of a tool result (`llmContent` as a string or parts), for the OS-denial classifier. */
function resultText(response: unknown): { text: string; error?: string } {
  if (typeof response !== "object" || response === null) return { text: typeof response === "string" ? response : "" };
  const { llmContent, returnDisplay, error } = response as Record<string, unknown>;
  const content =
    typeof llmContent === "string"
      ? llmContent
      : Array.isArray(llmContent)
        ? llmContent
            .map((part) =>
              typeof (part as { text?: unknown })?.text === "string" ? (part as { text: string }).text : "",
            )
            .join("\n")
        : typeof returnDisplay === "string"
          ? returnDisplay
          : "";
  const message =
    typeof error === "object" && error !== null && typeof (error as { message?: unknown }).message === "string"
      ? (error as { message: string }).message
      : undefined;
  return message === undefined ? { text: content } : { text: content, error: message };
}

/** AfterTool: the call ran. Its output is classified once (an OS or sandbox refusal counts as a denial). */
async function afterTool(input: GeminiAfterToolInput, context: HookContext): Promise<GeminiHookAnswer> {
  // the call as BeforeTool decided it (as Gemini sent it, when its path cannot be read: it ran all the same)
  const { call } = readCall(input);
  const { text, error } = resultText(input.tool_response);
  const exit = /Exit Code: (\d+)/.exec(text);
  const exitCode = exit === null ? undefined : Number(exit[1]);
  let effects: Effect[];
  if (error !== undefined) {
    effects = await context.session.failed(call, {
      error,
      ...(text === "" ? {} : { stdout: text }),
      ...(exitCode === undefined ? {} : { exitCode }),
    });
  } else {
    effects = await context.session.succeeded(call, {
      ...(text === "" ? {} : { output: text }),
      ...(exitCode === undefined ? {} : { exitCode }),
    });
  }
  const soft = joinTexts(nudgeOf(effects)?.text, textForModel(effects));
  const stop = abortOf(effects)?.error;
  if (soft === "" && stop === undefined) return PASS;
  return afterToolContext({ text: soft, ...(stop === undefined ? {} : { stop }) });
}

/**
 * Records the refusals in the session file that no hook saw (AfterTool never fires for a refused call): Gemini's
 * own policy denials toolgate did not answer first, headless declines, sandbox refusals. Each once, under Gemini's
 * own call id (the one `-o stream-json` shows, so `toolgate run` counts it once too). With the session's transcript
 * cursors, only the records appended since the last reconcile that recorded everything are read: Gemini appends a
 * record again each time it changes, so a call finished after the cursor shows after it.
 */
async function reconcileTranscript(input: GeminiHookInput, context: HookContext): Promise<Effect[]> {
  const path = input.transcript_path;
  if (path === undefined) return [];
  const cursors = context.openTranscript === undefined ? undefined : context.transcriptCursors;
  const from = cursors?.read(path);
  const file = transcriptLinesFor(context, path, from === undefined ? {} : { from });
  if (file === undefined) return [];
  // its `"toolCalls"` records hold most of its bytes: decoded at once, not line by line; a file replaced or cut while
  // it is read: as if unreadable (nothing recorded, the cursor stays)
  const denials = unlessTranscriptChanged(() => geminiTranscriptDenials(file.searchedText()));
  if (denials === undefined) return [];
  const effects = await recordTranscriptDenials(context.session, { denials });
  // every denial up to here is recorded (a failure above throws first): the next reconcile reads only what follows
  if (cursors !== undefined && file.next !== undefined) cursors.write(path, file.next);
  return effects;
}

/**
 * The tokens per call the session file records (a `gemini` message's `tokens`, on its first call): by Gemini's own
 * call ids for the refusals found in the session file; for a call toolgate refused at BeforeTool (an id of
 * toolgate's making: Gemini's hook input names none), by matching it to the file's record of that refusal
 * (gemini-refusal-tokens.ts), which reads the whole file.
 */
async function sessionCallTokens(input: GeminiHookInput, context: HookContext, only: readonly string[]) {
  if (input.transcript_path === undefined) return undefined;
  const { geminiSession } = await import("./gemini-session.js");
  const theirs = only.filter((id) => !isOwnCallId(id));
  if (theirs.length === only.length) {
    const text = transcriptNaming(context, { path: input.transcript_path, ids: only });
    return text === undefined ? undefined : callTokensIn(geminiSession, text, { only });
  }
  // toolgate's own refusals are matched over the whole file: it is read once, for Gemini's ids too, from the view the
  // event's reconcile read (a file replaced or cut since reads as unreadable)
  const path = input.transcript_path;
  const whole = unlessTranscriptChanged(() => transcriptLinesFor(context, path)?.searchedText());
  if (whole === undefined) return undefined;
  const named = theirs.length === 0 ? {} : callTokensIn(geminiSession, whole, { only: theirs });
  const { ownRefusalTokens } = await import("./gemini-refusal-tokens.js");
  const own = ownRefusalTokens({ text: whole, records: (await context.session.state()).records, wanted: only });
  return { ...named, ...own };
}

/** Handles one Gemini CLI hook event against a guard session and returns the answer to print. */
export async function handleGeminiHook(input: GeminiHookInput, context: HookContext): Promise<GeminiHookAnswer> {
  switch (input.hook_event_name) {
    case "BeforeTool":
      return beforeTool(input, context);
    case "AfterTool":
      return afterTool(input, context);
    case "BeforeAgent":
      await context.session.turnStarted({ prompt: input.prompt, project: input.cwd });
      return PASS;
    case "AfterAgent": {
      const stop = abortOf(await reconcileTranscript(input, context))?.error;
      const tokens = await wantedCallTokens(context.session, (only) => sessionCallTokens(input, context, only));
      await context.session.turnEnded({ outcome: "completed", ...tokens });
      // continue: false ends the session instead of letting Gemini retry the turn
      return stop === undefined ? PASS : { output: { continue: false, stopReason: stop }, exitCode: 0 };
    }
    case "SessionEnd":
      await reconcileTranscript(input, context);
      await context.session.end(
        await wantedCallTokens(context.session, (only) => sessionCallTokens(input, context, only)),
      );
      return PASS;
    default:
      return PASS;
  }
}
