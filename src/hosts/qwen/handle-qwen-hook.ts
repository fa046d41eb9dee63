import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { DeniedOptions } from "../../guard/types.js";
import { callTokensIn, transcriptNaming, wantedCallTokens } from "../common/call-tokens.js";
import { agentOf } from "../common/hook-event-fields.js";
import {
  type HookAnswer,
  type HookContext,
  newerView,
  recordTranscriptDenials,
  TranscriptChangedError,
  type TranscriptLines,
  transcriptLinesFor,
  unlessTranscriptChanged,
} from "../common/hook-host.js";
import type { TranscriptCursor } from "../common/transcript-cursor.js";
import type { QwenHookInput, QwenPostToolBatchInput, QwenToolEvent } from "./qwen-hook-input.js";
import { contextAnswer, PASS, preToolUseDeny } from "./qwen-hook-output.js";
import {
  classifyQwenDenial,
  findQwenCallId,
  findQwenTranscriptDenials,
  pendingQwenCalls,
  qwenToolStepWritten,
  TOOLGATE_TEXT_PREFIX,
} from "./qwen-transcript.js";

/** Guidance, fallback/skip/abort texts and loop steering, then the nudge, each once. */
function modelText(effects: readonly Effect[]): string {
  return [textForModel(effects), nudgeOf(effects)?.text ?? ""].filter((part) => part !== "").join("\n");
}

/**
 * The call as the transcript and stream-json key it (so a denial recorded here is not recorded again from
 * PostToolBatch or the transcript): the model's call id from `tool_call_id` (0.24.4 sends it), else found in the
 * transcript, else Qwen's own hook id; never derived from the input.
 */
function callOf(input: QwenToolEvent, context: HookContext): ToolCall {
  if (input.tool_call_id !== undefined && input.tool_call_id !== "") {
    return { toolUseId: input.tool_call_id, tool: input.tool_name, input: input.tool_input ?? {} };
  }
  const id =
    (input.transcript_path === undefined ? undefined : callIdIn(input, context, input.transcript_path)) ??
    (input.tool_use_id === undefined
      ? `qwen-hook:${globalThis.crypto.randomUUID()}`
      : `qwen-hook:${input.tool_use_id}`);
  return { toolUseId: id, tool: input.tool_name, input: input.tool_input ?? {} };
}

/** The model's id for the hook's call, searched back from the chat file's end; undefined when it cannot be read. */
function callIdIn(input: QwenToolEvent, context: HookContext, path: string): string | undefined {
  // replaced or cut while it was read: as if unreadable (Qwen's own hook id then keys the call)
  return unlessTranscriptChanged(() => {
    const chat = transcriptLinesFor(context, path);
    return chat === undefined
      ? undefined
      : findQwenCallId({ transcript: chat, tool: input.tool_name, input: input.tool_input });
  });
}

/**
 * Records each denial the transcript shows that no hook recorded (Qwen's own rule denials and headless declines),
 * once per call id, with its source. Returns the effects, in order. With the session's transcript cursors, only the
 * records appended since the last event that found the chat settled and recorded everything are read (a long
 * session's every continuation would otherwise parse its whole chat file).
 */
async function reconcile(input: QwenHookInput, context: HookContext): Promise<Effect[]> {
  const path = input.transcript_path;
  if (path === undefined) return [];
  const cursors = context.openTranscript === undefined ? undefined : context.transcriptCursors;
  // Qwen fires UserPromptSubmit with `prompt: ""` only to continue after a tool step
  const afterToolStep = input.hook_event_name === "UserPromptSubmit" && (input.prompt ?? "").trim() === "";
  const chat = await settledChat({ path, context, afterToolStep, from: cursors?.read(path) });
  if (chat === undefined) return [];
  // the settle check read these lines' calls and results once (a file replaced or cut meanwhile read as unreadable)
  const denials = findQwenTranscriptDenials(chat.lines);
  const effects = await recordTranscriptDenials(context.session, { denials, agentId: agentOf(input).agentId });
  // every denial up to here is recorded (a failure throws first), and every call up to here has its result (a cursor
  // is never left after a call still waiting for one): the next event reads only what follows
  const { next } = chat.lines;
  if (cursors !== undefined && chat.settled && next !== undefined) cursors.write(path, next);
  return effects;
}

/** the tokens per call the chat file records (`usageMetadata` of the model message that made the calls) */
async function chatCallTokens(input: QwenHookInput, context: HookContext, only: readonly string[]) {
  const text =
    input.transcript_path === undefined
      ? undefined
      : transcriptNaming(context, { path: input.transcript_path, ids: only });
  return text === undefined ? undefined : callTokensIn((await import("./qwen-chat.js")).qwenChat, text, { only });
}

/** How long a hook waits for the results of the previous step to reach the transcript (well inside its budget). */
const SETTLE_WAIT_MS = 1_500;
const SETTLE_POLL_MS = 25;

/**
 * The chat file once Qwen's writer caught up (or after SETTLE_WAIT_MS, as it is then; `settled` says which): every
 * call it shows has its result, and on a continuation (`afterToolStep`) the step's call and result are both written.
 * Each poll reads the file as it stands then. Undefined when it cannot be read, or was replaced or cut meanwhile.
 */
async function settledChat(options: {
  path: string;
  context: HookContext;
  afterToolStep: boolean;
  from: TranscriptCursor | undefined;
}): Promise<{ lines: TranscriptLines; settled: boolean } | undefined> {
  const { path, context, from } = options;
  // the calls and results are scanned first, always, here where a file replaced or cut meanwhile is caught: the
  // refusals' search then reads that scan, not the file
  const isSettled = (lines: TranscriptLines) =>
    pendingQwenCalls(lines).length === 0 && (!options.afterToolStep || qwenToolStepWritten(lines));
  const deadline = Date.now() + SETTLE_WAIT_MS;
  try {
    let previous: TranscriptLines | undefined;
    for (let again = false; ; again = true) {
      const opened = transcriptLinesFor(context, path, { ...(from === undefined ? {} : { from }), again });
      if (opened === undefined) return undefined;
      // no line completed since the last poll: its scan still answers (a partial line is never a record), so a long
      // wait on Qwen's writer does not parse the chat again at every poll
      const lines = newerView(previous, opened);
      previous = lines;
      const settled = isSettled(lines);
      if (settled || Date.now() >= deadline) return { lines, settled };
      await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    }
  } catch (error) {
    if (error instanceof TranscriptChangedError) return undefined;
    throw error;
  }
}

async function preToolUse(input: QwenToolEvent, context: HookContext): Promise<HookAnswer> {
  // Qwen only asks hooks about calls its own rules let through; an ask stays Qwen's to make
  const result = await context.session.decide(callOf(input, context), { ...agentOf(input), hostAsks: true });
  if (result.decision.behavior === "deny") {
    // always marked as toolgate's: PostToolBatch and the transcript then know this refusal is recorded already
    const reason = result.text !== "" ? result.text : `${TOOLGATE_TEXT_PREFIX} ${result.decision.reason}`;
    const nudge = nudgeOf(result.effects)?.text;
    // the reason is the whole tool result; an abort also stops the run at the next UserPromptSubmit
    return preToolUseDeny(nudge === undefined ? reason : `${reason}\n${nudge}`);
  }
  const text = modelText(result.effects);
  return text === "" ? PASS : contextAnswer({ event: "PreToolUse", text });
}

/**
 * Every call of the batch Qwen refused itself (its rules, its headless decline, its classifier), counted once with
 * the model's call id, before Qwen writes them to the transcript; toolgate's guidance is appended to the batch's
 * last tool result. An abort is delivered by the next UserPromptSubmit, which ends the run.
 */
async function postToolBatch(input: QwenPostToolBatchInput, context: HookContext): Promise<HookAnswer> {
  const refused: { call: ToolCall; options: DeniedOptions }[] = [];
  for (const call of input.tool_calls) {
    const response = call.tool_response ?? {};
    if (response.error_type !== "execution_denied" || typeof call.tool_use_id !== "string") continue;
    const text = typeof response.error === "string" ? response.error : String(response.result_display ?? "");
    if (text.startsWith(TOOLGATE_TEXT_PREFIX)) continue;
    const { source, rule } = classifyQwenDenial(text);
    refused.push({
      call: { toolUseId: call.tool_use_id, tool: call.tool_name, input: call.tool_input ?? {} },
      options: {
        source,
        reason: text,
        ...(rule === undefined ? {} : { rule }),
        ...(source === "classifier" ? { decisionReasonType: "classifier" } : {}),
        ...agentOf(input),
      },
    });
  }
  // the refusals not recorded yet, in one transaction; the session's state tells which (the store only when it cannot)
  const effects = await context.session.deniedUnlessRecorded(refused);
  return contextAnswer({ event: "PostToolBatch", text: modelText(effects) });
}

/** What the model is told after one of Qwen's steps: the denials of that step, then the end of the run if due. */
async function userPromptSubmit(
  input: Extract<QwenHookInput, { hook_event_name: "UserPromptSubmit" }>,
  context: HookContext,
): Promise<HookAnswer> {
  // only a person's prompt starts a turn: Qwen sends `prompt: ""` on every continuation after tool results
  if (typeof input.prompt === "string" && input.prompt.trim() !== "") {
    await context.session.turnStarted({ prompt: input.prompt, project: input.cwd });
  }
  const effects = await reconcile(input, context);
  const stop = abortOf(effects)?.error ?? (await context.session.state()).aborted?.error;
  // Qwen fires neither Stop nor SessionEnd after a hook ends the run: end the turn here (per-denial hooks get this
  // turn's records) with the tokens of the wasted calls still waiting (read only while one waits), then the session,
  // so its summary carries them. A later SessionEnd (an interactive session goes on) writes a newer summary.
  if (stop !== undefined) {
    await context.session.turnEnded({
      outcome: "cancelled",
      ...(await wantedCallTokens(context.session, (only) => chatCallTokens(input, context, only))),
    });
    await context.session.end();
  }
  return contextAnswer({
    event: "UserPromptSubmit",
    text: modelText(effects),
    ...(stop === undefined ? {} : { stop }),
  });
}

function responseText(response: unknown): string {
  if (typeof response === "string") return response;
  if (typeof response !== "object" || response === null) return "";
  const { llmContent, returnDisplay } = response as { llmContent?: unknown; returnDisplay?: unknown };
  if (typeof llmContent === "string") return llmContent;
  return typeof returnDisplay === "string" ? returnDisplay : "";
}

function exitCodeOf(error: string): { exitCode?: number } {
  const match = /^Exit Code: (\d+)$/m.exec(error);
  return match === null ? {} : { exitCode: Number(match[1]) };
}

/** Handles one Qwen Code hook event against a guard session and returns the answer to print. */
export async function handleQwenHook(input: QwenHookInput, context: HookContext): Promise<HookAnswer> {
  switch (input.hook_event_name) {
    case "PreToolUse":
      return preToolUse(input, context);
    case "UserPromptSubmit":
      return userPromptSubmit(input, context);
    case "PostToolBatch":
      return postToolBatch(input, context);
    case "PostToolUse": {
      const output = responseText(input.tool_response);
      const effects = await context.session.succeeded(callOf(input, context), {
        ...agentOf(input),
        ...(output === "" ? {} : { output }),
      });
      // Qwen appends this to the tool result the model reads
      return contextAnswer({ event: "PostToolUse", text: modelText(effects) });
    }
    case "PostToolUseFailure": {
      const error = input.error ?? "";
      const effects = await context.session.failed(callOf(input, context), {
        error,
        ...exitCodeOf(error),
        ...agentOf(input),
      });
      return contextAnswer({ event: "PostToolUseFailure", text: modelText(effects) });
    }
    case "PermissionDenied":
      // a classifier block: PostToolBatch counts it with the model's call id (this event's id is Qwen's own)
      return PASS;
    case "Stop":
      await reconcile(input, context);
      await context.session.turnEnded({
        outcome: "completed",
        ...(await wantedCallTokens(context.session, (only) => chatCallTokens(input, context, only))),
      });
      return PASS;
    case "SessionEnd":
      await reconcile(input, context);
      await context.session.end(
        await wantedCallTokens(context.session, (only) => chatCallTokens(input, context, only)),
      );
      return PASS;
    case "SessionStart":
      return PASS;
  }
}
