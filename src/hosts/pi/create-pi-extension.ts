import type { Effect } from "../../core/effects.js";
import type { ToolCall } from "../../core/events.js";
import type { Guard } from "../../guard/create-guard.js";
import { errorText } from "../../guard/error-text.js";
import { failClosedText } from "../../guard/fail-closed.js";
import { abortOf, nudgeOf, textForModel } from "../../guard/text-for-model.js";
import type { GuardSession } from "../../guard/types.js";
import type {
  PiContentBlock,
  PiContext,
  PiExtension,
  PiToolCallEvent,
  PiToolCallResult,
  PiToolResultEvent,
  PiToolResultPatch,
} from "./pi-extension-api.js";
import { piToolCall } from "./pi-tool-call.js";
import type { PiPathSystem } from "./resolve-pi-path.js";

/** What the extension asks the composition root for (the entry binds `openToolgate`). */
export interface PiGuardRequest {
  cwd: string;
  onError: (error: unknown, where: string) => void;
}

/** The guard the root opened for the extension, and how to close it. */
export interface PiGuard {
  guard: Guard;
  /** tells `toolgate run` (when it started pi) that this session belongs to its run */
  noteSession?(sessionId: string): void;
  close(): Promise<void>;
}

export interface PiExtensionOptions {
  open: (request: PiGuardRequest) => Promise<PiGuard>;
  /** overrides `ctx.hasUI` (and `TOOLGATE_INTERACTIVE`, read by the entry) */
  interactive?: boolean;
  /** toolgate stopped the run: told once per session, with the abort's user-facing error (default: stderr) */
  onStop?: (error: string) => void;
  /** internal errors (default: one line on stderr) */
  onError?: (error: unknown, where: string) => void;
  /**
   * the platform and home directory pi reads a tool's path with (the entry binds `os.homedir()`); default: this
   * process's platform, and `~` paths read by toolgate's policy
   */
  paths?: PiPathSystem;
}

/** toolgate's words start with this; pi shows the model a blocked call's reason verbatim. */
export const PI_TOOLGATE_PREFIX = "[toolgate]";

function joinText(...parts: (string | undefined)[]): string {
  return parts.filter((part): part is string => part !== undefined && part !== "").join("\n\n");
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content
    .map((block: PiContentBlock) => (block?.type === "text" && typeof block.text === "string" ? block.text : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * The pi extension: pi has no permission system of its own, so toolgate's policy is the only one. Every call is
 * decided in `tool_call` (one reducer step); a refusal is `{ block: true, reason }` and the model reads the reason
 * as the call's error, with toolgate's escalating guidance. At the threshold the refusal also carries `terminate`,
 * which ends pi's agent run. Results are reported in `tool_result` (OS-level denials in the output count), a real
 * user prompt starts a turn. An internal error blocks the call; it never lets one through.
 */
export function createPiExtension(options: PiExtensionOptions): PiExtension {
  const onError =
    options.onError ??
    ((error: unknown, where: string) => process.stderr.write(`toolgate: ${where}: ${errorText(error)}\n`));
  const onStop = options.onStop ?? ((error: string) => process.stderr.write(`toolgate: ${error}\n`));
  const system: PiPathSystem = options.paths ?? { platform: process.platform };
  let opening: Promise<PiGuard> | undefined;
  const sessions = new Map<string, GuardSession>();
  const stopped = new Set<string>();
  /** calls toolgate let through, by id, until their result is reported */
  const running = new Map<string, { call: ToolCall; session: GuardSession; note: string }>();

  const open = (context: PiContext) => {
    opening ??= options.open({ cwd: context.cwd ?? ".", onError });
    return opening;
  };
  const sessionFor = async (context: PiContext): Promise<GuardSession> => {
    const opened = await open(context);
    const id = context.sessionManager?.getSessionId?.() ?? "pi-session";
    let session = sessions.get(id);
    if (session === undefined) {
      opened.noteSession?.(id);
      session = opened.guard.session(id, { interactive: options.interactive ?? context.hasUI === true, host: "pi" });
      sessions.set(id, session);
    }
    return session;
  };
  const handleAbort = (session: GuardSession, effects: readonly Effect[]): boolean => {
    const abort = abortOf(effects);
    if (abort === undefined) return false;
    if (!stopped.has(session.id)) {
      stopped.add(session.id);
      onStop(abort.error);
    }
    return true;
  };

  async function decide(event: PiToolCallEvent, context: PiContext): Promise<PiToolCallResult | undefined> {
    const call = piToolCall(event, { cwd: context.cwd, system });
    if (typeof call === "string") {
      return { block: true, reason: `${PI_TOOLGATE_PREFIX} This call was refused: ${call}. Send a well-formed call.` };
    }
    const session = await sessionFor(context);
    const interactive = options.interactive ?? context.hasUI === true;
    // pi asks nothing itself and runs every call: an ask no rule made (toolgate's defaults) is pi's to settle, and
    // pi runs it; an `ask` rule's ask is put to the person through pi's UI, or is a headless denial in this step
    const result = await session.decide(call, interactive ? { hostAsks: true } : { hostAsks: true, cannotAsk: true });
    const aborted = handleAbort(session, result.effects);
    const { decision } = result;
    if (decision.behavior === "allow" || (decision.behavior === "ask" && decision.source === "default")) {
      if (decision.behavior === "ask") handleAbort(session, await session.allowed(call));
      running.set(call.toolUseId, { call, session, note: textForModel(result.effects) });
      return undefined;
    }
    if (decision.behavior === "ask") {
      // asked under pi's own name for the tool (`powershell` is decided as `bash`)
      return ask({ call, session, context, interactive, question: decision.reason, tool: String(event.toolName) });
    }
    const reason = joinText(result.text || result.decision.reason, nudgeOf(result.effects)?.text);
    return { block: true, reason, ...(aborted ? { terminate: true } : {}) };
  }

  /** A toolgate `ask` rule with a person at pi's UI: pi has no prompt of its own, so toolgate asks through it. */
  async function ask(asked: {
    call: ToolCall;
    session: GuardSession;
    context: PiContext;
    interactive: boolean;
    question: string;
    /** the tool as pi names it */
    tool: string;
  }): Promise<PiToolCallResult | undefined> {
    const { call, session, context, tool } = asked;
    // pi's dialogs answer only where a person is (`hasUI`); headless, an ask is a headless denial
    const confirm = asked.interactive ? context.ui?.confirm : undefined;
    const yes = confirm !== undefined && (await confirm(`toolgate: allow ${tool}?`, asked.question)) === true;
    if (yes) {
      handleAbort(session, await session.allowed(call));
      running.set(call.toolUseId, { call, session, note: "" });
      return undefined;
    }
    const reason =
      confirm === undefined
        ? `${tool} needs a person's approval, and nobody can answer in this run (pi's print or JSON mode).`
        : `${tool} was declined at toolgate's prompt.`;
    const effects = await session.denied(call, { source: confirm === undefined ? "headless" : "user", reason });
    const aborted = handleAbort(session, effects);
    return {
      block: true,
      reason: joinText(`${PI_TOOLGATE_PREFIX} ${reason}`, textForModel(effects), nudgeOf(effects)?.text),
      ...(aborted ? { terminate: true } : {}),
    };
  }

  async function report(event: PiToolResultEvent): Promise<PiToolResultPatch | undefined> {
    if (typeof event.toolCallId !== "string") return undefined;
    const entry = running.get(event.toolCallId);
    if (entry === undefined) return undefined;
    running.delete(event.toolCallId);
    const text = textOf(event.content);
    const effects =
      event.isError === true
        ? await entry.session.failed(entry.call, { error: text, stdout: text })
        : await entry.session.succeeded(entry.call, { output: text });
    handleAbort(entry.session, effects);
    const guidance = joinText(entry.note, textForModel(effects), nudgeOf(effects)?.text);
    if (guidance === "") return undefined;
    const content = Array.isArray(event.content) ? (event.content as PiContentBlock[]) : [];
    return { content: [...content, { type: "text", text: guidance }] };
  }

  return (pi) => {
    pi.on("tool_call", async (event, context) => {
      try {
        return await decide(event, context);
      } catch (error) {
        // fail closed: an internal error never lets a call through that toolgate was asked to check
        onError(error, "tool_call");
        return { block: true, reason: `${PI_TOOLGATE_PREFIX} ${failClosedText(error, "tool_call")}` };
      }
    });
    pi.on("tool_result", async (event) => {
      try {
        return await report(event);
      } catch (error) {
        onError(error, "tool_result");
        return undefined;
      }
    });
    pi.on("before_agent_start", async (event, context) => {
      // a prompt a person (or the command line) gave, not a message an extension sent
      if (event["messageType"] !== "user") return;
      try {
        await (await sessionFor(context)).turnStarted();
      } catch (error) {
        onError(error, "before_agent_start");
      }
    });
    pi.on("agent_settled", async (_event, context) => {
      try {
        await (await sessionFor(context)).turnEnded();
      } catch (error) {
        onError(error, "agent_settled");
      }
    });
    pi.on("session_shutdown", async () => {
      if (opening === undefined) return;
      try {
        const opened = await opening;
        await opened.guard.drain();
        await opened.close();
      } catch (error) {
        onError(error, "session_shutdown");
      } finally {
        opening = undefined;
        sessions.clear();
      }
    });
  };
}
