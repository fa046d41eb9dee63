import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import {
  type HookAnswer,
  type HookContext,
  newerView,
  recordTranscriptDenials,
  type TranscriptLines,
  transcriptDenialCalls,
  transcriptLinesFor,
  unlessTranscriptChanged,
} from "../common/hook-host.js";
import { lifecycleEvent } from "../common/lifecycle-event.js";
import {
  copilotDenials,
  copilotEventsPath,
  findCopilotCallId,
  findCopilotPreToolUseId,
  pendingCopilotCalls,
  TOOLGATE_MARK,
} from "./copilot-events.js";
import type { CopilotHookInput, CopilotToolEvent } from "./copilot-hook-input.js";
import { additionalContext, PASS, permissionDeny, preToolUseAsk, preToolUseDeny } from "./copilot-hook-output.js";

/** How long a hook waits for Copilot to write the events it needs (it writes them about 100 ms late). */
const SETTLE_WAIT_MS = 1_500;
const SETTLE_POLL_MS = 25;

function join(...parts: string[]): string {
  return parts.filter((part) => part !== "").join("\n");
}

/** Guidance, fallback/skip/abort texts and loop steering, then the nudge, each once. */
function modelText(effects: readonly Effect[]): string {
  return join(textForModel(effects), nudgeOf(effects)?.text ?? "");
}

/** toolgate's text as Copilot records it: marked, so a later read of the events never counts it again. */
function marked(text: string): string {
  return text.includes(TOOLGATE_MARK) ? text : `${TOOLGATE_MARK} ${text}`;
}

/**
 * The session's events once Copilot's writer caught up with `until` (or after SETTLE_WAIT_MS, as they are then;
 * `settled` says which; each poll reads the file as it stands then); `lines` undefined when there is no events file
 * to read, or it was replaced or cut while it was read; undefined when the session has no events path.
 */
async function settledEvents(
  input: { sessionId: string },
  context: HookContext,
  until: (events: TranscriptLines) => boolean,
): Promise<{ path: string; lines: TranscriptLines | undefined; settled: boolean } | undefined> {
  const path = copilotEventsPath({ env: context.env ?? {}, sessionId: input.sessionId });
  if (path === undefined) return undefined;
  // the calls are scanned from the session's cursor (left where every call before it had its outcome), if any
  const from = context.openTranscript === undefined ? undefined : context.transcriptCursors?.read(path);
  const deadline = Date.now() + SETTLE_WAIT_MS;
  let previous: TranscriptLines | undefined;
  for (let again = false; ; again = true) {
    const events = unlessTranscriptChanged(() => {
      const opened = transcriptLinesFor(context, path, { again, ...(from === undefined ? {} : { from }) });
      if (opened === undefined) return undefined;
      // no line completed since the last poll: the last poll's searches answer again (no parse at every poll)
      const lines = newerView(previous, opened);
      previous = lines;
      // what the events' users read is read here, where a changed file is caught (each search is made once per read)
      return { lines, settled: until(lines) };
    });
    if (events?.settled === true || Date.now() >= deadline) {
      return { path, lines: events?.lines, settled: events?.settled === true };
    }
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
  }
}

/**
 * The call as Copilot's events key it (so a denial recorded here is not recorded again from them): Copilot's own
 * call id when its events show the call, else an id of this hook's own (the payload carries none).
 */
function callOf(input: CopilotToolEvent, text: TranscriptLines | undefined, pending: boolean): ToolCall {
  const id =
    text === undefined
      ? undefined
      : unlessTranscriptChanged(() => findCopilotCallId({ text, tool: input.toolName, args: input.toolArgs, pending }));
  return {
    toolUseId: id ?? `copilot-hook:${globalThis.crypto.randomUUID()}`,
    tool: input.toolName,
    input: input.toolArgs ?? {},
  };
}

/** The id Copilot recorded for this preToolUse (`hook.start` at the payload's timestamp), when written. */
function preToolUseId(input: CopilotToolEvent, text: TranscriptLines): string | undefined {
  return findCopilotPreToolUseId({ text, timestamp: input.timestamp, tool: input.toolName, args: input.toolArgs });
}

/** Settled when this hook's start is in the events (every earlier call's outcome is written before it). */
function callSettled(input: CopilotToolEvent) {
  return (text: TranscriptLines) => {
    const id = preToolUseId(input, text);
    return id !== undefined && pendingCopilotCalls(text).every((pending) => pending === id);
  };
}

/**
 * One preToolUse, one reducer step, one state transaction: the refusals Copilot made itself since the last event
 * (its `--deny-tool` rules, a headless approval; no hook fires after them) are counted before the call
 * (`earlierDenials`), then toolgate decides the call. A deny is Copilot's own refusal with toolgate's text; in `-p`
 * nobody answers an ask, so an ask of a rule is a headless denial in the same step (`cannotAsk`).
 */
async function preToolUse(input: CopilotToolEvent, context: HookContext): Promise<HookAnswer> {
  const text = (await settledEvents(input, context, callSettled(input)))?.lines;
  const exact = text === undefined ? undefined : unlessTranscriptChanged(() => preToolUseId(input, text));
  const call =
    exact === undefined ? callOf(input, text, true) : { ...callOf(input, undefined, true), toolUseId: exact };
  const earlier =
    text === undefined
      ? []
      : (unlessTranscriptChanged(() => copilotDenials(text)) ?? []).filter(
          (denial) => denial.toolUseId !== call.toolUseId,
        );
  const result = await context.session.decide(call, {
    hostAsks: true,
    cannotAsk: !context.interactive,
    earlierDenials: transcriptDenialCalls(earlier),
  });
  const reason = marked(result.text !== "" ? result.text : result.decision.reason);
  if (result.decision.behavior === "deny") {
    const nudge = nudgeOf(result.effects)?.text;
    return preToolUseDeny(nudge === undefined ? reason : `${reason}\n${nudge}`);
  }
  // an ask of a toolgate rule: Copilot puts it to the person (in -p the guard already made it a denial)
  if (result.decision.behavior === "ask" && context.interactive) return preToolUseAsk(reason);
  return PASS;
}

/**
 * Copilot asks permission for a call preToolUse let through (it fires before its own rules, also in `-p`). After
 * toolgate aborted the session, the call is refused with the abort's text and, headless, the run is interrupted
 * there: nobody is left to read another answer. Otherwise Copilot's own rules and prompt decide, as without toolgate.
 */
async function permissionRequest(context: HookContext): Promise<HookAnswer> {
  const aborted = (await context.session.state()).aborted;
  if (aborted === undefined) return PASS;
  return permissionDeny({
    message: marked(aborted.text ?? aborted.error ?? aborted.reason),
    interrupt: !context.interactive,
  });
}

/** Records the refusals the events show that no hook recorded, once every started call has its outcome. */
async function reconcile(input: CopilotHookInput, context: HookContext): Promise<Effect[]> {
  const events = await settledEvents(input, context, (lines) => pendingCopilotCalls(lines).length === 0);
  const text = events?.lines;
  const denials = text === undefined ? undefined : unlessTranscriptChanged(() => copilotDenials(text));
  if (events === undefined || text === undefined || denials === undefined) return [];
  const effects = await recordTranscriptDenials(context.session, { denials });
  // every refusal up to here is recorded (a failure throws first) and every call up to here has its outcome: later
  // events scan only the calls Copilot starts after this
  const cursors = context.openTranscript === undefined ? undefined : context.transcriptCursors;
  if (cursors !== undefined && events.settled && text.next !== undefined) cursors.write(events.path, text.next);
  return effects;
}

function resultText(result: unknown): string {
  if (typeof result !== "object" || result === null) return "";
  const text = (result as { textResultForLlm?: unknown }).textResultForLlm;
  return typeof text === "string" ? text : "";
}

function exitCodeOf(output: string): { exitCode?: number } {
  const match = /<shellId: \S+ completed with exit code (\d+)>/.exec(output);
  return match === null ? {} : { exitCode: Number(match[1]) };
}

/** Handles one Copilot CLI hook event against a guard session and returns the answer to print. */
export async function handleCopilotHook(input: CopilotHookInput, context: HookContext): Promise<HookAnswer> {
  switch (input.event) {
    case "preToolUse":
      return preToolUse(input, context);
    case "permissionRequest":
      return permissionRequest(context);
    case "postToolUse": {
      // a command that exits non-zero is a success here; its output shows an OS or sandbox refusal (the guard
      // classifies it once and counts it as that denial), and the guidance is appended to the result
      const path = copilotEventsPath({ env: context.env ?? {}, sessionId: input.sessionId });
      // the call is searched back from the file's end (no cursor: it may have started before one)
      const text = path === undefined ? undefined : unlessTranscriptChanged(() => transcriptLinesFor(context, path));
      const output = resultText(input.toolResult);
      const effects = await context.session.succeeded(callOf(input, text, false), {
        ...(output === "" ? {} : { output }),
        ...exitCodeOf(output),
      });
      const stop = abortOf(effects);
      return additionalContext(join(modelText(effects), stop === undefined ? "" : stop.error));
    }
    case "postToolUseFailure": {
      const path = copilotEventsPath({ env: context.env ?? {}, sessionId: input.sessionId });
      // the call is searched back from the file's end (no cursor: it may have started before one)
      const text = path === undefined ? undefined : unlessTranscriptChanged(() => transcriptLinesFor(context, path));
      const error = typeof input.error === "string" ? input.error : "";
      const effects = await context.session.failed(callOf(input, text, false), { error });
      const stop = abortOf(effects);
      return additionalContext(join(modelText(effects), stop === undefined ? "" : stop.error));
    }
    case "userPromptSubmitted":
      await lifecycleEvent(context.session, {
        name: "UserPromptSubmit",
        ...(typeof input.prompt === "string" ? { prompt: input.prompt } : {}),
        project: input.cwd,
      });
      return PASS;
    case "agentStop":
      await lifecycleEvent(context.session, { name: "Stop", reconcile: () => reconcile(input, context) });
      return PASS;
    case "subagentStop":
      await reconcile(input, context);
      return PASS;
    case "sessionEnd":
      await lifecycleEvent(context.session, { name: "SessionEnd", reconcile: () => reconcile(input, context) });
      return PASS;
    case "sessionStart":
    case "notification":
    case "errorOccurred":
      return PASS;
  }
}
